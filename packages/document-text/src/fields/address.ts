/**
 * Reads a postal address block by its shape, for the sub-fields of an address object that have no
 * label of their own: the street line starts with a number, the postal code has a country's form
 * (US ZIP, Canadian and UK postcodes, 4–6 digits elsewhere), a US state or Canadian province code
 * sits next to it, the city before them (or after the code: "75001 Paris"), a country's name on its
 * own. Which sub-field is which part comes from its name and title (`street_number`, "Postal Code",
 * "ZIP", "City", ...).
 */
import type { Word } from '../extractor';

export type AddressPart =
  | 'complete'
  | 'street_number'
  | 'street_name'
  | 'po_box'
  | 'address_complement'
  | 'city'
  | 'postal_code'
  | 'state'
  | 'country';

export interface AddressValue {
  value: string;
  words: Word[];
  /** How sure the shape is: 1 for a pattern, less for "the words before the comma". */
  certainty: number;
}

const PARTS: readonly [AddressPart, RegExp][] = [
  ['po_box', /\bp\.? ?o\.? ?box\b|\bpost office box\b/],
  ['postal_code', /\bpostal\b|\bzip\b|\bpost ?code\b/],
  ['street_number', /\b(?:street|house|building) (?:number|no|nr)\b/],
  ['address_complement', /\bcomplement\b|\bsuite\b|\bapartment\b|\baddress line 2\b/],
  ['street_name', /\bstreet\b/],
  ['city', /\bcity\b|\btown\b|\blocality\b/],
  ['state', /\bstate\b|\bprovince\b|\bregion\b|\bcounty\b/],
  ['country', /\bcountry\b/],
  ['complete', /\bcomplete\b|\bfull\b|\baddress\b|^value\b/],
];

/** Which part of an address a sub-field is, from its name and title. */
export function addressPartOf(field: { name: string; title: string }): AddressPart | undefined {
  const text = `${field.name.replace(/_/g, ' ')} ${field.title}`.toLowerCase();
  return PARTS.find(([, pattern]) => pattern.test(text))?.[0];
}

const US_STATES =
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR';
const CA_PROVINCES = 'AB BC MB NB NL NS NT NU ON PE QC SK YT';
const REGION_CODES = new Set(`${US_STATES} ${CA_PROVINCES}`.split(' '));

const COUNTRIES = [
  'United States of America',
  'United States',
  'USA',
  'U.S.A.',
  'Canada',
  'United Kingdom',
  'UK',
  'England',
  'Scotland',
  'Wales',
  'Ireland',
  'France',
  'Germany',
  'Deutschland',
  'Spain',
  'España',
  'Italy',
  'Italia',
  'Belgium',
  'Belgique',
  'Switzerland',
  'Suisse',
  'Schweiz',
  'Netherlands',
  'Nederland',
  'Luxembourg',
  'Austria',
  'Portugal',
  'Australia',
  'Mexico',
  'Japan',
  'China',
  'India',
].map((c) => c.toLowerCase().split(' '));

const bare = (text: string): string => text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.]+$/gu, '');
const textOf = (words: readonly Word[]): string =>
  words
    .map((w) => w.text)
    .join(' ')
    .replace(/[\s,;]+$/, '')
    .trim();

const STREET_NUMBER = /^\d{1,6}[A-Za-z]?(?:-\d{1,6})?,?$/;
const COMPLEMENT = /\b(?:suite|ste|apt|apartment|unit|floor|fl|bldg|building|c\/o|room|po box|p\.o\. box)\b/i;

interface PostalHit {
  line: number;
  start: number;
  end: number;
}

export function readAddress(lines: readonly Word[][]): Partial<Record<AddressPart, AddressValue>> {
  const out: Partial<Record<AddressPart, AddressValue>> = {};
  const all = lines.flat();
  if (all.length === 0) return out;
  out.complete = {
    value: lines.map((l) => textOf(l)).join('\n'),
    words: all,
    certainty: 1,
  };

  const streetLine = lines.findIndex(
    (l) => STREET_NUMBER.test(l[0]?.text ?? '') && /\p{L}{2}/u.test(l[1]?.text ?? ''),
  );
  const street = lines[streetLine];
  if (street) {
    const numberWord = street[0] as Word;
    out.street_number = { value: bare(numberWord.text), words: [numberWord], certainty: 0.95 };
    const nameWords: Word[] = [];
    for (const word of street.slice(1)) {
      nameWords.push(word);
      if (word.text.endsWith(',')) break;
    }
    out.street_name = { value: textOf(nameWords), words: nameWords, certainty: 0.9 };
  }

  const postal = findPostalCode(lines, streetLine);
  if (postal) {
    const line = lines[postal.line] ?? [];
    const codeWords = line.slice(postal.start, postal.end);
    out.postal_code = { value: codeWords.map((w) => bare(w.text)).join(' '), words: codeWords, certainty: 1 };
    const stateIndex = line.findIndex(
      (w, i) => i < postal.start + 1 && REGION_CODES.has(bare(w.text)) && i !== postal.start,
    );
    const state = line[stateIndex];
    if (state) out.state = { value: bare(state.text), words: [state], certainty: 0.95 };
    const cityEnd = state ? stateIndex : postal.start;
    let cityWords = line.slice(0, cityEnd).filter((w) => !isCountryWord(w));
    if (cityEnd === 0) cityWords = line.slice(postal.end).filter((w) => !isCountryWord(w) && w !== state);
    if (cityWords.length === 0 && postal.line > 0) {
      // "156 University Ave, Toronto" / "ON, Canada, M5H 2H7": the city ends the line before.
      const previous = lines[postal.line - 1] ?? [];
      const lastComma = previous.findLastIndex((w, i) => w.text.endsWith(',') && i < previous.length - 1);
      if (lastComma >= 0) cityWords = previous.slice(lastComma + 1);
    }
    if (cityWords.length > 0 && cityWords.some((w) => /\p{L}{2}/u.test(w.text))) {
      out.city = { value: bare(textOf(cityWords)), words: cityWords, certainty: 0.85 };
    }
  } else {
    // No postal code: a "City, ST" line still gives both.
    for (const line of lines) {
      const stateIndex = line.findIndex(
        (w, i) => i > 0 && REGION_CODES.has(bare(w.text)) && line[i - 1]?.text.endsWith(','),
      );
      const state = line[stateIndex];
      if (!state) continue;
      out.state = { value: bare(state.text), words: [state], certainty: 0.85 };
      const cityWords = line.slice(0, stateIndex);
      out.city = { value: bare(textOf(cityWords)), words: cityWords, certainty: 0.8 };
      break;
    }
  }

  for (const line of lines) {
    const country = findCountry(line);
    if (country) {
      out.country = { value: textOf(country), words: country, certainty: 0.95 };
      break;
    }
  }
  for (const line of lines) {
    const text = textOf(line);
    const box = /\bp\.? ?o\.? ?box\s+([A-Za-z0-9-]+)/i.exec(text);
    if (box?.[1]) {
      const word = line.find((w) => bare(w.text) === box[1]);
      out.po_box = { value: box[1], words: word ? [word] : line, certainty: 0.95 };
    }
  }
  const complementLine = lines.find(
    (l, i) => i !== streetLine && COMPLEMENT.test(textOf(l)) && !/\bbox\b/i.test(textOf(l)),
  );
  if (complementLine) {
    out.address_complement = { value: textOf(complementLine), words: complementLine, certainty: 0.85 };
  }
  return out;
}

/** The postal code, searched from the last line up (it ends an address). */
function findPostalCode(lines: readonly Word[][], streetLine: number): PostalHit | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const tokens = (lines[i] ?? []).map((w) => bare(w.text).toUpperCase());
    for (let k = 0; k < tokens.length; k++) {
      const [a = '', b = ''] = [tokens[k], tokens[k + 1]];
      if (/^[A-Z]\d[A-Z]$/.test(a) && /^\d[A-Z]\d$/.test(b)) return { line: i, start: k, end: k + 2 };
      if (/^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(a)) return { line: i, start: k, end: k + 1 };
      if (/^[A-Z]{1,2}\d[A-Z\d]?$/.test(a) && /^\d[A-Z]{2}$/.test(b))
        return { line: i, start: k, end: k + 2 };
    }
    for (let k = tokens.length - 1; k >= 0; k--) {
      if (i === streetLine && k === 0) continue;
      if (/^\d{5}(?:-\d{4})?$/.test(tokens[k] ?? '') || /^\d{4,6}$/.test(tokens[k] ?? '')) {
        return { line: i, start: k, end: k + 1 };
      }
    }
  }
  return undefined;
}

function findCountry(line: readonly Word[]): Word[] | undefined {
  const tokens = line.map((w) => bare(w.text).toLowerCase());
  for (const country of COUNTRIES) {
    for (let k = 0; k + country.length <= tokens.length; k++) {
      if (country.every((c, j) => bare(c) === tokens[k + j])) return line.slice(k, k + country.length);
    }
  }
  return undefined;
}

const isCountryWord = (word: Word): boolean => findCountry([word]) !== undefined;
