/**
 * A one-page PDF encrypted with a user password, written by hand: the standard security handler,
 * revision 6 (AES-256, ISO 32000-2 § 7.6.4), with node:crypto only. RC4 (revisions 2–4) is out of
 * reach: OpenSSL 3's default provider has no RC4, and AES-128 (revision 4) still computes its /O and
 * /U entries with RC4. MuPDF (AGPL) used to write this file; the npm packages that encrypt PDFs are
 * little-used forks of pdf-lib, and a test helper does not need another dependency.
 *
 * The only encrypted thing is the page's content stream: the file has no other strings or streams.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';

export interface EncryptedPdfOptions {
  /** One line of Helvetica text on the page. */
  text: string;
  userPassword: string;
  ownerPassword: string;
}

/** All permissions (ISO 32000-2 table 22: bits 1–2 clear, every other bit set). */
const PERMISSIONS = -4;

export function encryptedPdf({ text, userPassword, ownerPassword }: EncryptedPdfOptions): Uint8Array {
  const fileKey = randomBytes(32);
  const user = passwordBytes(userPassword);
  const owner = passwordBytes(ownerPassword);

  // Algorithm 8 (U, UE) then algorithm 9 (O, OE, which depend on U): salts are 8 random bytes each.
  const [userValidationSalt, userKeySalt] = [randomBytes(8), randomBytes(8)];
  const u = Buffer.concat([hardenedHash(user, userValidationSalt), userValidationSalt, userKeySalt]);
  const ue = aes256NoPadding('aes-256-cbc', hardenedHash(user, userKeySalt), fileKey);
  const [ownerValidationSalt, ownerKeySalt] = [randomBytes(8), randomBytes(8)];
  const o = Buffer.concat([hardenedHash(owner, ownerValidationSalt, u), ownerValidationSalt, ownerKeySalt]);
  const oe = aes256NoPadding('aes-256-cbc', hardenedHash(owner, ownerKeySalt, u), fileKey);
  // Algorithm 10: the permissions, sealed with the file key so that they cannot be edited.
  const perms = Buffer.alloc(16);
  perms.writeInt32LE(PERMISSIONS, 0);
  perms.fill(0xff, 4, 8);
  perms.write('Tadb', 8, 'latin1'); // T: metadata is encrypted too (there is none here)
  randomBytes(4).copy(perms, 12);
  const sealedPerms = aes256NoPadding('aes-256-ecb', fileKey, perms);

  const content = Buffer.from(`BT /F1 24 Tf 72 700 Td (${escapePdfString(text)}) Tj ET\n`, 'latin1');
  const encryptedContent = encryptAesV3(fileKey, content);
  const hex = (bytes: Buffer): string => `<${bytes.toString('hex')}>`;
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Resources<</Font<</F1 4 0 R>>>>/Contents 5 0 R>>',
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>',
    Buffer.concat([
      Buffer.from(`<</Length ${encryptedContent.length}>>\nstream\n`, 'latin1'),
      encryptedContent,
      Buffer.from('\nendstream', 'latin1'),
    ]),
    // The encryption dictionary's own strings are never encrypted.
    `<</Filter/Standard/V 5/R 6/Length 256/P ${PERMISSIONS}/EncryptMetadata true` +
      `/CF<</StdCF<</CFM/AESV3/AuthEvent/DocOpen/Length 32>>>>/StmF/StdCF/StrF/StdCF` +
      `/O${hex(o)}/U${hex(u)}/OE${hex(oe)}/UE${hex(ue)}/Perms${hex(sealedPerms)}>>`,
  ];
  const id = hex(randomBytes(16));
  return writePdf(objects, `/Root 1 0 R/Encrypt 6 0 R/ID[${id}${id}]`);
}

/** Objects numbered from 1, generation 0, with a classic cross-reference table. */
function writePdf(objects: readonly (string | Buffer)[], trailerEntries: string): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<</Size ${objects.length + 1}${trailerEntries}>>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

/** Revision 6 passwords: UTF-8 (SASLprep is the identity for the ASCII used here), 127 bytes at most. */
function passwordBytes(password: string): Buffer {
  return Buffer.from(password, 'utf8').subarray(0, 127);
}

/**
 * Algorithm 2.B: SHA-256 of the password and salt (and, for the owner, the U entry), then at least 64
 * rounds of AES-128 and SHA-2, so that guessing passwords is slow.
 */
function hardenedHash(password: Buffer, salt: Buffer, userEntry: Buffer = Buffer.alloc(0)): Buffer {
  let k = createHash('sha256')
    .update(Buffer.concat([password, salt, userEntry]))
    .digest();
  for (let round = 0; ;) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => Buffer.concat([password, k, userEntry])));
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    // The first 16 bytes of E as a number, mod 3: 256 ≡ 1 (mod 3), so the sum of the bytes will do.
    const remainder = e.subarray(0, 16).reduce((sum, byte) => sum + byte, 0) % 3;
    k = createHash(['sha256', 'sha384', 'sha512'][remainder] ?? 'sha256')
      .update(e)
      .digest();
    round++;
    if (round >= 64 && (e[e.length - 1] ?? 0) <= round - 32) break;
  }
  return k.subarray(0, 32);
}

function aes256NoPadding(algorithm: 'aes-256-cbc' | 'aes-256-ecb', key: Buffer, data: Buffer): Buffer {
  const cipher = createCipheriv(algorithm, key, algorithm === 'aes-256-cbc' ? Buffer.alloc(16) : null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

/** AESV3 strings and streams: a random 16-byte IV, then AES-256-CBC with PKCS#7 padding, file key as is. */
function encryptAesV3(fileKey: Buffer, data: Buffer): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', fileKey, iv);
  return Buffer.concat([iv, cipher.update(data), cipher.final()]);
}

const escapePdfString = (text: string): string => text.replace(/[\\()]/g, (c) => `\\${c}`);
