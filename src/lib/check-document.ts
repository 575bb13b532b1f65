/**
 * The checks a document passes before it is sent, each with a message that says what to do: the type
 * from the bytes, the 100 MB limit, an encrypted PDF. The service checks the same things (and says so
 * with a 422 or a 413), but only after the whole file has travelled.
 */
import { MAX_FILE_BYTES } from '@extraction-review/contract/v2/request-schemas';
import { isEncryptedPdf } from './pdf-encryption';
import { TYPE_NAMES, isAcceptedType, sniffFileType, type SniffedType } from './sniff-file';

export type ProblemKind = 'empty' | 'too-large' | 'unsupported' | 'heic' | 'encrypted';

export interface DocumentProblem {
  kind: ProblemKind;
  message: string;
  /**
   * The operator may send it anyway: an encrypted PDF that opens without a password (only printing or
   * editing restricted) is read by the service; this check cannot tell the two kinds apart.
   */
  overridable: boolean;
}

export interface DocumentCheck {
  mimeType: SniffedType;
  problem: DocumentProblem | null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const SUPPORTED = `${Object.values(TYPE_NAMES).slice(0, -1).join(', ')} or ${TYPE_NAMES['image/tiff']}`;

export async function checkDocument(file: File | Blob, maxBytes = MAX_FILE_BYTES): Promise<DocumentCheck> {
  const name = file instanceof File ? file.name : '';
  if (file.size === 0)
    return problem('unknown', 'empty', 'The file is empty (0 bytes): choose the document itself.');
  const mimeType = await sniffFileType(file);
  if (file.size > maxBytes)
    return problem(
      mimeType,
      'too-large',
      `The file is ${formatBytes(file.size)}; the service takes documents up to ${formatBytes(maxBytes)}. ` +
        'Split it, or save it at a lower resolution.',
    );
  if (mimeType === 'image/heic')
    return problem(
      mimeType,
      'heic',
      'This is a HEIC/HEIF photo: the service reads it, but browsers cannot show it for review. ' +
        'Export it as JPEG (or PNG) and add that instead.',
    );
  if (!isAcceptedType(mimeType)) {
    const claimsPdf = /\.pdf$/i.test(name);
    return problem(
      mimeType,
      'unsupported',
      claimsPdf
        ? 'Its name ends in .pdf, but its content does not start like a PDF: it is damaged, or another kind of file renamed. Open it and save it again as PDF.'
        : `This is not a ${SUPPORTED} document (judged from its content, not its name).`,
    );
  }
  if (mimeType === 'application/pdf' && (await isEncryptedPdf(file)))
    return {
      mimeType,
      problem: {
        kind: 'encrypted',
        overridable: true,
        message:
          'This PDF is encrypted. If it asks for a password when opened, the service will refuse it: ' +
          'save a copy without the password and add that. If it opens without one (only printing or ' +
          'editing is restricted), you can send it anyway.',
      },
    };
  return { mimeType, problem: null };
}

function problem(mimeType: SniffedType, kind: ProblemKind, message: string): DocumentCheck {
  return { mimeType, problem: { kind, message, overridable: false } };
}
