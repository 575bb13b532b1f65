/**
 * Invoices and receipts the field finder was not tuned on: made from a seed, in English, French,
 * German and Spanish wordings, several layouts (label and value on one line with or without a colon,
 * across a tab stop, label above value, a sentence such as "Invoice X of <date>"; letterheads left or
 * centred; tables with different columns; totals with or without currency signs or codes) and the
 * number and date forms of each locale, each with the true values of what it prints.
 *
 * A document is a list of placed strings (`PlacedText`), drawn as a text-layer PDF by `renderPdf`
 * with pdf-lib; its truth is an `ExtractionLike` (evaluate/accuracy.ts) holding only the fields it
 * prints (a field it leaves out is null, an absence to be found as such). The wordings here were
 * written from invoices in use, not from the finder's vocabulary (extract/fields/vocabulary.ts).
 */
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { ExtractionLike } from '../evaluate/accuracy';
import { INVOICE_MODEL_ID, RECEIPT_MODEL_ID } from './fields-samples';

/** A small seeded PRNG (mulberry32): the same seed gives the same documents. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PlacedText {
  text: string;
  /** Points from the left edge (the right end for `align: 'right'`, the centre for 'center'). */
  x: number;
  /** Points from the top edge to the baseline. */
  y: number;
  size: number;
  bold?: boolean;
  align?: 'left' | 'right' | 'center';
}

export interface GeneratedDocument {
  /** `invoice-fr-3` and the like, with the layout choices, for reports. */
  name: string;
  layout: string;
  modelId: string;
  width: number;
  height: number;
  texts: PlacedText[];
  /** The true values of what is printed. */
  truth: ExtractionLike;
}

type Lang = 'en' | 'fr' | 'de' | 'es';

interface Locale {
  id: string;
  lang: Lang;
  country: string;
  /** How the country is printed in an address. */
  countryName: string;
  currency: string;
  symbol: string;
  /** Thousands and decimal separators. */
  group: string;
  decimal: string;
  symbolAfter: boolean;
  dates: ((d: DateParts) => string)[];
  taxRates: number[];
  address: (r: Rng) => string[];
  phone: (r: Rng) => string;
}

interface DateParts {
  y: number;
  m: number;
  d: number;
}

class Rng {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  digits(n: number): string {
    return Array.from({ length: n }, () => String(this.int(0, 9))).join('');
  }
}

const pad = (n: number): string => String(n).padStart(2, '0');

const MONTHS: Record<Lang, string[]> = {
  en: 'January February March April May June July August September October November December'.split(' '),
  fr: 'janvier février mars avril mai juin juillet août septembre octobre novembre décembre'.split(' '),
  de: 'Januar Februar März April Mai Juni Juli August September Oktober November Dezember'.split(' '),
  es: 'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'.split(' '),
};
const month = (lang: Lang, m: number): string => MONTHS[lang][m - 1] ?? '';
const short = (lang: Lang, m: number): string => {
  const name = month(lang, m);
  return lang === 'en'
    ? name.slice(0, 3)
    : name.length > 4
      ? `${name.slice(0, 4).replace(/[éû]$/, '')}.`
      : name;
};

const iso = ({ y, m, d }: DateParts): string => `${y}-${pad(m)}-${pad(d)}`;

const STREETS = ['Oak', 'Maple', 'Cedar', 'Pine', 'Elm', 'Lake', 'Hill', 'Park', 'River', 'Mill'];
const TOWNS_US: [string, string, string][] = [
  ['Raleigh', 'NC', '276'],
  ['Austin', 'TX', '787'],
  ['Denver', 'CO', '802'],
  ['Portland', 'OR', '972'],
  ['Columbus', 'OH', '432'],
];

const LOCALES: Locale[] = [
  {
    id: 'en-US',
    lang: 'en',
    country: 'US',
    countryName: 'USA',
    currency: 'USD',
    symbol: '$',
    group: ',',
    decimal: '.',
    symbolAfter: false,
    dates: [
      (p) => `${pad(p.m)}/${pad(p.d)}/${p.y}`,
      (p) => `${p.m}/${p.d}/${p.y}`,
      (p) => `${month('en', p.m)} ${p.d}, ${p.y}`,
      (p) => `${short('en', p.m)} ${p.d}, ${p.y}`,
      (p) => `${pad(p.m)}-${pad(p.d)}-${p.y}`,
    ],
    taxRates: [0, 6, 7.25, 8],
    address: (r) => {
      const [town, state, zip] = r.pick(TOWNS_US);
      return [
        `${r.int(10, 9999)} ${r.pick(STREETS)} ${r.pick(['Street', 'Avenue', 'Road', 'Blvd'])}`,
        `${town}, ${state} ${zip}${r.digits(2)}`,
      ];
    },
    phone: (r) => `(${r.int(200, 989)}) ${r.int(200, 989)}-${r.digits(4)}`,
  },
  {
    id: 'en-GB',
    lang: 'en',
    country: 'GB',
    countryName: 'United Kingdom',
    currency: 'GBP',
    symbol: '£',
    group: ',',
    decimal: '.',
    symbolAfter: false,
    dates: [
      (p) => `${pad(p.d)}/${pad(p.m)}/${p.y}`,
      (p) => `${p.d} ${month('en', p.m)} ${p.y}`,
      (p) => `${p.d} ${short('en', p.m)} ${p.y}`,
      (p) => `${pad(p.d)}.${pad(p.m)}.${p.y}`,
      (p) => iso(p),
    ],
    taxRates: [20],
    address: (r) => [
      `${r.int(1, 250)} ${r.pick(STREETS)} ${r.pick(['Street', 'Lane', 'Road'])}`,
      `${r.pick(['London', 'Leeds', 'Bristol', 'York'])} ${r.pick(['EC1A', 'LS1', 'BS8', 'YO1'])} ${r.int(1, 9)}${r.pick(['AB', 'QT', 'XY'])}`,
    ],
    phone: (r) => `${r.pick(['020', '0113', '0117'])} ${r.digits(3)} ${r.digits(4)}`,
  },
  {
    id: 'fr-FR',
    lang: 'fr',
    country: 'FR',
    countryName: 'France',
    currency: 'EUR',
    symbol: '€',
    group: ' ',
    decimal: ',',
    symbolAfter: true,
    dates: [
      (p) => `${pad(p.d)}/${pad(p.m)}/${p.y}`,
      (p) => `${p.d === 1 ? '1er' : p.d} ${month('fr', p.m)} ${p.y}`,
      (p) => `${pad(p.d)}/${pad(p.m)}/${String(p.y).slice(2)}`,
      (p) => `${pad(p.d)}.${pad(p.m)}.${p.y}`,
    ],
    taxRates: [20, 10, 5.5],
    address: (r) => [
      `${r.int(1, 120)} ${r.pick(['rue', 'avenue', 'boulevard'])} ${r.pick(['de la Paix', 'Victor Hugo', 'des Lilas', 'Pasteur'])}`,
      `${r.pick(['75002 Paris', '69003 Lyon', '33000 Bordeaux', '31000 Toulouse'])}`,
    ],
    phone: (r) =>
      `${r.pick(['+33 1', '01', '04'])} ${r.digits(2)} ${r.digits(2)} ${r.digits(2)} ${r.digits(2)}`,
  },
  {
    id: 'de-DE',
    lang: 'de',
    country: 'DE',
    countryName: 'Deutschland',
    currency: 'EUR',
    symbol: '€',
    group: '.',
    decimal: ',',
    symbolAfter: true,
    dates: [
      (p) => `${pad(p.d)}.${pad(p.m)}.${p.y}`,
      (p) => `${p.d}. ${month('de', p.m)} ${p.y}`,
      (p) => `${pad(p.d)}.${pad(p.m)}.${String(p.y).slice(2)}`,
      (p) => iso(p),
    ],
    taxRates: [19, 7],
    address: (r) => [
      `${r.pick(['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Lindenallee'])} ${r.int(1, 99)}`,
      `${r.pick(['10115 Berlin', '80331 München', '50667 Köln', '20095 Hamburg'])}`,
    ],
    phone: (r) => `${r.pick(['+49 30', '030', '089', '+49 221'])} ${r.digits(7)}`,
  },
  {
    id: 'es-ES',
    lang: 'es',
    country: 'ES',
    countryName: 'España',
    currency: 'EUR',
    symbol: '€',
    group: '.',
    decimal: ',',
    symbolAfter: true,
    dates: [
      (p) => `${pad(p.d)}/${pad(p.m)}/${p.y}`,
      (p) => `${p.d} de ${month('es', p.m)} de ${p.y}`,
      (p) => `${pad(p.d)}-${pad(p.m)}-${p.y}`,
      (p) => `${p.d}-${month('es', p.m).slice(0, 3)}-${p.y}`,
    ],
    taxRates: [21, 10],
    address: (r) => [
      `${r.pick(['Calle Mayor', 'Avenida de la Constitución', 'Calle de Alcalá', 'Paseo del Prado'])}, ${r.int(1, 150)}`,
      `${r.pick(['28013 Madrid', '08001 Barcelona', '46001 Valencia', '41001 Sevilla'])}`,
    ],
    phone: (r) => `${r.pick(['+34 91', '91', '93'])} ${r.digits(3)} ${r.digits(2)} ${r.digits(2)}`,
  },
  {
    id: 'de-CH',
    lang: 'de',
    country: 'CH',
    countryName: 'Schweiz',
    currency: 'CHF',
    symbol: 'CHF',
    group: "'",
    decimal: '.',
    symbolAfter: false,
    dates: [(p) => `${pad(p.d)}.${pad(p.m)}.${p.y}`, (p) => `${p.d}. ${month('de', p.m)} ${p.y}`],
    taxRates: [8.1],
    address: (r) => [
      `${r.pick(['Bahnhofstrasse', 'Seestrasse', 'Marktgasse'])} ${r.int(1, 99)}`,
      `${r.pick(['8001 Zürich', '3011 Bern', '4051 Basel'])}`,
    ],
    phone: (r) => `+41 ${r.digits(2)} ${r.digits(3)} ${r.digits(2)} ${r.digits(2)}`,
  },
];

/** Label wordings per language, as they are printed on invoices and receipts in use. */
const WORDS = {
  title: {
    en: ['INVOICE', 'Invoice', 'TAX INVOICE', 'INVOICE / FACTURE'],
    fr: ['FACTURE', 'Facture', 'FACTURE / INVOICE'],
    de: ['RECHNUNG', 'Rechnung'],
    es: ['FACTURA', 'Factura'],
  },
  receiptTitle: {
    en: ['RECEIPT', 'SALES RECEIPT', ''],
    fr: ['TICKET DE CAISSE', 'REÇU', ''],
    de: ['KASSENBON', 'QUITTUNG', ''],
    es: ['TICKET', 'FACTURA SIMPLIFICADA', ''],
  },
  number: {
    en: [
      'Invoice No.',
      'Invoice #',
      'Invoice Number',
      'Invoice number',
      'Bill #',
      'Number',
      'Invoice ID',
      'Inv. No.',
    ],
    fr: ['N° de facture', 'Facture n°', 'Numéro de facture', 'N° facture', 'Numéro'],
    de: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.', 'Rechnungsnr.', 'Nummer'],
    es: ['Nº de factura', 'Número de factura', 'Factura nº', 'Nº factura', 'Número'],
  },
  date: {
    en: ['Date', 'Invoice Date', 'Date of issue', 'Issue date', 'Dated', 'Bill date'],
    fr: ['Date', 'Date de facture', 'Date de facturation', "Date d'émission"],
    de: ['Datum', 'Rechnungsdatum', 'Ausstellungsdatum', 'Belegdatum'],
    es: ['Fecha', 'Fecha de factura', 'Fecha de emisión', 'Fecha factura'],
  },
  due: {
    en: ['Due date', 'Due', 'Payment due', 'Due by', 'Pay by', 'Payment due date'],
    fr: ['Échéance', "Date d'échéance", 'À payer avant le', 'Date limite de paiement'],
    de: ['Fällig am', 'Fälligkeitsdatum', 'Zahlbar bis', 'Fälligkeit'],
    es: ['Vencimiento', 'Fecha de vencimiento', 'Fecha vencimiento', 'Pagar antes de'],
  },
  order: {
    en: ['PO Number', 'Purchase order', 'Order No.', 'PO #'],
    fr: ['Bon de commande', 'N° de commande', 'Commande n°'],
    de: ['Bestellnummer', 'Bestell-Nr.', 'Auftragsnummer'],
    es: ['Nº de pedido', 'Pedido', 'Número de pedido'],
  },
  customer: {
    en: ['Bill to', 'Billed to', 'Invoice to', 'Customer', 'Sold to'],
    fr: ['Facturé à', 'Client', 'Adressé à'],
    de: ['Rechnungsempfänger', 'Kunde', 'Rechnung an'],
    es: ['Facturar a', 'Cliente', 'Facturado a'],
  },
  supplier: {
    en: ['From', 'Supplier', 'Vendor'],
    fr: ['Fournisseur', 'Émetteur', 'De'],
    de: ['Lieferant', 'Absender', 'Von'],
    es: ['Proveedor', 'Emisor', 'De'],
  },
  phone: {
    en: ['Phone', 'Tel', 'Tel.', 'Phone:'],
    fr: ['Tél.', 'Téléphone', 'Tel'],
    de: ['Telefon', 'Tel.', 'Tel'],
    es: ['Teléfono', 'Tel.', 'Tlf.'],
  },
  net: {
    en: ['Subtotal', 'Sub-total', 'Net amount', 'Total excl. tax', 'Total before tax', 'Net', 'Net total'],
    fr: ['Total HT', 'Montant HT', 'Sous-total', 'Total hors taxes'],
    de: ['Zwischensumme', 'Nettobetrag', 'Summe netto', 'Netto', 'Gesamt netto'],
    es: ['Subtotal', 'Base imponible', 'Importe neto', 'Total sin IVA'],
  },
  tax: {
    en: ['Tax {r}', 'Sales tax ({r})', 'VAT {r}', 'VAT ({r})', 'Tax', 'Total tax'],
    fr: ['TVA {r}', 'TVA ({r})', 'Montant TVA', 'TVA'],
    de: ['MwSt. {r}', 'USt. {r}', 'zzgl. {r} MwSt.', 'Umsatzsteuer {r}', 'MwSt.'],
    es: ['IVA {r}', 'IVA ({r})', 'Cuota IVA', 'IVA'],
  },
  total: {
    en: ['Total', 'Total amount', 'Amount due', 'Balance Due', 'Total due', 'Grand total', 'Total incl. tax'],
    fr: ['Total TTC', 'Montant TTC', 'Net à payer', 'Total à payer', 'Montant total'],
    de: ['Gesamtbetrag', 'Rechnungsbetrag', 'Summe', 'Gesamt', 'Bruttobetrag', 'Endbetrag', 'Zu zahlen'],
    es: ['Total', 'Total factura', 'Importe total', 'Total a pagar', 'TOTAL'],
  },
  receiptNo: {
    en: ['Receipt #', 'Receipt No.', 'Trans #', 'Transaction'],
    fr: ['Ticket n°', 'N° de ticket', 'Ticket N°'],
    de: ['Beleg-Nr.', 'Bon-Nr.', 'Belegnummer'],
    es: ['Ticket nº', 'Nº ticket', 'Nº de ticket'],
  },
  tip: {
    en: ['Tip', 'Gratuity'],
    fr: ['Pourboire'],
    de: ['Trinkgeld'],
    es: ['Propina'],
  },
  currency: {
    en: ['Currency', 'All amounts in'],
    fr: ['Devise', 'Montants en'],
    de: ['Währung', 'Beträge in'],
    es: ['Moneda', 'Importes en'],
  },
  of: { en: ['of', 'dated'], fr: ['du'], de: ['vom'], es: ['de fecha', 'del'] },
  invoiceWord: { en: ['Invoice'], fr: ['Facture n°'], de: ['Rechnung Nr.'], es: ['Factura nº'] },
  columns: {
    description: {
      en: ['Description', 'Item', 'Service'],
      fr: ['Désignation', 'Description', 'Article'],
      de: ['Beschreibung', 'Artikel', 'Bezeichnung', 'Leistung'],
      es: ['Descripción', 'Concepto', 'Artículo'],
    },
    quantity: {
      en: ['Qty', 'Quantity', 'Hours'],
      fr: ['Qté', 'Quantité'],
      de: ['Menge', 'Anzahl'],
      es: ['Cantidad', 'Cant.', 'Uds.'],
    },
    unit: {
      en: ['Unit price', 'Price', 'Rate'],
      fr: ['Prix unitaire', 'P.U.', 'Prix unit.'],
      de: ['Einzelpreis', 'Preis', 'E-Preis'],
      es: ['Precio unitario', 'Precio', 'Precio unit.'],
    },
    amount: {
      en: ['Amount', 'Total', 'Line total'],
      fr: ['Montant', 'Total HT', 'Montant HT'],
      de: ['Betrag', 'Gesamt', 'Gesamtpreis'],
      es: ['Importe', 'Total'],
    },
  },
  footer: {
    en: ['Thank you for your business!', 'Payment terms: 30 days', 'Page 1 of 1'],
    fr: ['Merci de votre confiance', 'Conditions de paiement : 30 jours', 'Page 1/1'],
    de: ['Vielen Dank für Ihren Auftrag', 'Zahlungsbedingungen: 30 Tage netto', 'Seite 1 von 1'],
    es: ['Gracias por su confianza', 'Forma de pago: transferencia', 'Página 1 de 1'],
  },
  receiptFooter: {
    en: ['Thank you for visiting!', 'Please come again'],
    fr: ['Merci de votre visite', 'À bientôt'],
    de: ['Vielen Dank für Ihren Einkauf', 'Auf Wiedersehen'],
    es: ['Gracias por su visita', 'Vuelva pronto'],
  },
  payment: {
    en: ['Card', 'VISA', 'Cash'],
    fr: ['CB', 'Carte bancaire', 'Espèces'],
    de: ['EC-Karte', 'Bar', 'Kartenzahlung'],
    es: ['Tarjeta', 'Efectivo'],
  },
  /** Tax identifiers by country; `{vat}` is an EU-style VAT number, which starts with the country's code. */
  taxId: {
    US: ['EIN: {d2}-{d7}', 'Tax ID: {d2}-{d7}'],
    GB: ['VAT No: GB {d3} {d4} {d2}', 'Company No. {d8}'],
    FR: ['N° TVA : FR{d2} {d9}', 'SIRET : {d3} {d3} {d3} {d5}'],
    DE: ['USt-IdNr.: DE{d9}', 'Steuernummer: {d2}/{d3}/{d5}'],
    ES: ['CIF: B{d8}', 'NIF: ESB{d8}'],
    CH: ['MWST-Nr.: CHE-{d3}.{d3}.{d3} MWST', 'UID: CHE-{d3}.{d3}.{d3}'],
  } as Record<string, string[]>,
} as const;

const COMPANIES = {
  en: [
    'Northwind Traders',
    'Blue Ridge Supply Co.',
    'Acme Widgets LLC',
    'Harbor Lane Studio',
    'Pinecrest Consulting',
  ],
  fr: ['Atelier Dupont SARL', 'Boulangerie Martin', 'Société Lefèvre & Fils', 'Imprimerie du Centre'],
  de: ['Müller & Schmidt GmbH', 'Bäckerei Weber', 'Schneider Technik AG', 'Druckhaus Becker KG'],
  es: ['Distribuciones García S.L.', 'Talleres López S.A.', 'Panadería Fernández', 'Gráficas Martínez S.L.'],
} as const;
const CUSTOMERS = {
  en: ['Jordan Ellis', 'Riverside Dental Group', 'Maya Thompson', 'Crescent Logistics Inc.'],
  fr: ['Claire Moreau', 'Cabinet Girard', 'Hôtel des Alpes', 'Julien Petit'],
  de: ['Anna Fischer', 'Praxis Dr. Wagner', 'Hotel Sonnenhof', 'Lukas Hoffmann'],
  es: ['Lucía Romero', 'Clínica Dental Sol', 'Hotel Mirador', 'Javier Navarro'],
} as const;
const STORES = {
  en: ['Corner Coffee House', 'Greenleaf Market', 'The Old Oak Pub', 'Fuel Stop 24'],
  fr: ['Café de la Gare', 'Supermarché Léon', 'Brasserie du Port', 'Pharmacie Centrale'],
  de: ['Café Sonnenschein', 'Markt am Platz', 'Gasthaus zur Linde', 'Bäckerei Krause'],
  es: ['Cafetería El Sol', 'Supermercado Plaza', 'Bar Restaurante Luna', 'Farmacia Central'],
} as const;
const ITEMS = {
  en: [
    'Consulting services',
    'Website design',
    'Printer paper A4',
    'Maintenance visit',
    'Software licence',
    'Delivery',
  ],
  fr: ['Prestation de conseil', 'Création de logo', 'Papier A4', 'Intervention technique', 'Livraison'],
  de: ['Beratungsleistung', 'Webdesign', 'Druckerpapier A4', 'Wartung vor Ort', 'Versandkosten'],
  es: ['Servicios de consultoría', 'Diseño web', 'Papel A4', 'Mantenimiento', 'Transporte'],
} as const;
const RECEIPT_ITEMS = {
  en: ['Cappuccino', 'Croissant', 'Bagel', 'Orange juice', 'Sandwich', 'Water'],
  fr: ['Café crème', 'Croissant', 'Baguette', "Jus d'orange", 'Sandwich jambon', 'Eau minérale'],
  de: ['Milchkaffee', 'Brezel', 'Brötchen', 'Apfelschorle', 'Käsekuchen', 'Wasser'],
  es: ['Café con leche', 'Tostada', 'Zumo de naranja', 'Bocadillo', 'Agua', 'Croissant'],
} as const;

/** A number in the locale's form; `plainGroups` drops the thousands separator. */
function formatNumber(value: number, locale: Locale, plainGroups: boolean, digits = 2): string {
  const [int = '0', frac] = Math.abs(value).toFixed(digits).split('.');
  const grouped = plainGroups ? int : int.replace(/\B(?=(\d{3})+(?!\d))/g, locale.group);
  return `${value < 0 ? '-' : ''}${grouped}${frac !== undefined ? `${locale.decimal}${frac}` : ''}`;
}

type MoneyStyle = 'symbol-before' | 'symbol-after' | 'code-before' | 'code-after' | 'bare';

function formatMoney(value: number, locale: Locale, style: MoneyStyle, plainGroups: boolean): string {
  const n = formatNumber(value, locale, plainGroups);
  const symbol = locale.symbol;
  switch (style) {
    case 'symbol-before':
      return symbol.length > 1 ? `${symbol} ${n}` : `${symbol}${n}`;
    case 'symbol-after':
      return `${n} ${symbol}`;
    case 'code-before':
      return `${locale.currency} ${n}`;
    case 'code-after':
      return `${n} ${locale.currency}`;
    default:
      return n;
  }
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

function addDays(p: DateParts, days: number): DateParts {
  const d = new Date(Date.UTC(p.y, p.m - 1, p.d + days));
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
}

const simple = (value: string | number | null): { value: string | number | null } => ({ value });

interface Amounts {
  items: { description: string; quantity: number; unit: number; total: number }[];
  net: number;
  rate: number;
  tax: number;
  total: number;
}

function amounts(r: Rng, names: readonly string[], rate: number, count: number, small: boolean): Amounts {
  const pool = [...names];
  const items = Array.from({ length: count }, () => {
    const description = pool.splice(r.int(0, pool.length - 1), 1)[0] ?? 'Item';
    const quantity = r.pick(small ? [1, 1, 2, 3] : [1, 2, 3, 5, 10, 12]);
    const unit = small ? r.int(150, 900) / 100 : r.int(1500, 250000) / 100;
    return { description, quantity, unit, total: round2(quantity * unit) };
  });
  const net = round2(items.reduce((s, i) => s + i.total, 0));
  const tax = round2((net * rate) / 100);
  return { items, net, rate, tax, total: round2(net + tax) };
}

/** A page being laid out: a cursor going down, and the texts placed so far. */
class Sheet {
  readonly texts: PlacedText[] = [];
  y: number;
  constructor(
    readonly width: number,
    readonly height: number,
    readonly size: number,
    top: number,
  ) {
    this.y = top;
  }
  put(text: string, x: number, opts: Partial<PlacedText> = {}): void {
    if (text !== '') this.texts.push({ text, x, y: this.y, size: opts.size ?? this.size, ...opts });
  }
  down(lines = 1): void {
    this.y += lines * this.size * 1.45;
  }
}

const percentText = (rate: number, locale: Locale, r: Rng): string => {
  const n = Number.isInteger(rate) ? String(rate) : String(rate).replace('.', locale.decimal);
  return locale.lang === 'fr' && r.chance(0.5) ? `${n} %` : `${n}%`;
};

/** One invoice: letterhead, title, number and dates, customer, items table, totals, footer. */
function invoice(r: Rng, index: number): GeneratedDocument {
  const locale = r.pick(LOCALES);
  const { lang } = locale;
  const letter = locale.id === 'en-US';
  const sheet = new Sheet(letter ? 612 : 595, letter ? 792 : 842, r.pick([9, 10, 10, 11]), 60);
  const layout: string[] = [locale.id];
  const left = 50;
  const right = sheet.width - 50;
  const plainGroups = r.chance(0.2);
  const moneyStyle: MoneyStyle = r.pick(
    locale.symbolAfter
      ? ['symbol-after', 'symbol-after', 'code-after', 'code-before', 'bare']
      : ['symbol-before', 'symbol-before', 'code-before', 'code-after', 'bare'],
  );
  layout.push(moneyStyle);
  const money = (v: number): string => formatMoney(v, locale, moneyStyle, plainGroups);
  const rate = r.pick(locale.taxRates);
  const a = amounts(r, ITEMS[lang], rate, r.int(1, 4), false);
  const dateFormat = r.pick(locale.dates);
  // Day ≤ 12 half of the time: the day/month order must then come from the document's evidence.
  const issued: DateParts = {
    y: r.pick([2025, 2026]),
    m: r.int(1, 12),
    d: r.chance(0.5) ? r.int(1, 12) : r.int(13, 28),
  };
  const due = r.chance(0.75) ? addDays(issued, r.pick([14, 30, 30, 45])) : undefined;
  const number = r.pick([
    () => `INV-${issued.y}-${r.digits(4)}`,
    () => `${r.digits(5)}`,
    () => `INV/${String(issued.y).slice(2)}/${r.digits(4)}`,
    () => `F${issued.y}-${r.digits(3)}`,
    () => `RE-${r.digits(6)}`,
    () => `${issued.y}/${r.digits(3)}`,
  ])();
  const supplier = r.pick(COMPANIES[lang]);
  const customer = r.pick(CUSTOMERS[lang]);
  const phone = locale.phone(r);
  const printCountry = r.chance(0.4);
  const order = r.chance(0.3) ? `PO-${r.digits(5)}` : undefined;

  // Letterhead and title.
  const title = r.pick(WORDS.title[lang]);
  const header = r.pick(['name-left-title-right', 'title-first', 'supplier-label']);
  layout.push(header);
  let phonePrinted = false;
  let countryPrinted = printCountry;
  const letterhead = (x: number, align: 'left' | 'center' = 'left'): void => {
    sheet.put(supplier, x, { size: sheet.size + 6, bold: true, align });
    sheet.down(1.3);
    for (const line of [...locale.address(r), ...(printCountry ? [locale.countryName] : [])]) {
      sheet.put(line, x, { align });
      sheet.down();
    }
    if (r.chance(0.7)) {
      sheet.put(`${r.pick(WORDS.phone[lang]).replace(/:$/, '')}: ${phone}`, x, { align });
      phonePrinted = true;
      sheet.down();
    }
    if (r.chance(0.5)) {
      const id = r
        .pick(WORDS.taxId[locale.country] ?? [])
        .replace(/\{d(\d)\}/g, (_, n: string) => r.digits(Number(n)));
      sheet.put(id, x, { align });
      // An EU VAT number prints the country's code: "FR12 345678901", "DE123456789", "GB 123 4567 89".
      countryPrinted ||= new RegExp(`\\b${locale.country}(?:\\d| \\d)`).test(id);
      sheet.down();
    }
  };
  if (header === 'name-left-title-right') {
    sheet.put(title, right, { size: sheet.size + 8, bold: true, align: 'right' });
    letterhead(left);
  } else if (header === 'title-first') {
    sheet.put(title, sheet.width / 2, { size: sheet.size + 8, bold: true, align: 'center' });
    sheet.down(2);
    letterhead(left);
  } else {
    sheet.put(title, left, { size: sheet.size + 8, bold: true });
    sheet.down(2);
    sheet.put(`${r.pick(WORDS.supplier[lang])}:`, left, { bold: true });
    sheet.down();
    letterhead(left);
  }
  sheet.down();

  // Number, dates, order: in one of four styles; the customer block beside it or above it.
  const meta = r.pick(['colon', 'tab', 'above', 'sentence']);
  layout.push(`meta-${meta}`);
  const pairs: [string, string][] = [[r.pick(WORDS.number[lang]), number]];
  if (meta !== 'sentence') pairs.push([r.pick(WORDS.date[lang]), dateFormat(issued)]);
  if (due) pairs.push([r.pick(WORDS.due[lang]), dateFormat(due)]);
  if (order) pairs.push([r.pick(WORDS.order[lang]), order]);
  const customerLabel = r.pick(WORDS.customer[lang]);
  const customerLines = [customer, ...locale.address(r)];
  const beside = meta !== 'above' && meta !== 'sentence' && r.chance(0.5);
  const metaX = beside ? sheet.width * 0.55 : left;
  const startY = sheet.y;
  // Past the longest label (Helvetica Bold is about 0.6 em a character).
  const tabStop = Math.max(90, ...pairs.map(([label]) => label.length * sheet.size * 0.6 + 15));
  if (meta === 'sentence') {
    const of = r.pick(WORDS.of[lang]);
    sheet.put(`${r.pick(WORDS.invoiceWord[lang])} ${number} ${of} ${dateFormat(issued)}`, left, {
      bold: true,
    });
    sheet.down();
    for (const [label, value] of pairs.slice(1)) {
      sheet.put(`${label}: ${value}`, left);
      sheet.down();
    }
  } else if (meta === 'above') {
    const step = (right - left) / pairs.length;
    pairs.forEach(([label], i) => sheet.put(label, left + i * step, { bold: true }));
    sheet.down();
    pairs.forEach(([, value], i) => sheet.put(value, left + i * step));
    sheet.down();
  } else {
    for (const [label, value] of pairs) {
      if (meta === 'colon') sheet.put(`${label}: ${value}`, metaX);
      else {
        sheet.put(label, metaX, { bold: true });
        sheet.put(value, metaX + tabStop);
      }
      sheet.down();
    }
  }
  const customerPrinted = true;
  if (beside) sheet.y = startY;
  else sheet.down();
  sheet.put(`${customerLabel}:`, left, { bold: true });
  sheet.down();
  for (const line of customerLines) {
    sheet.put(line, left);
    sheet.down();
  }
  sheet.y = Math.max(sheet.y, startY + pairs.length * sheet.size * 1.45);
  sheet.down();
  const currencyLine = moneyStyle === 'bare';
  if (currencyLine) {
    const label = r.pick(WORDS.currency[lang]);
    sheet.put(label.includes(' ') ? `${label} ${locale.currency}` : `${label}: ${locale.currency}`, left);
    sheet.down(1.5);
  }

  // The items table.
  const columns = r.pick([
    ['description', 'quantity', 'unit', 'amount'],
    ['description', 'quantity', 'unit', 'amount'],
    ['description', 'amount'],
    ['quantity', 'description', 'unit', 'amount'],
  ] as const);
  layout.push(`table-${columns.length}`);
  const colX: Record<string, number> = {};
  const textCols = columns.filter((c) => c === 'description');
  let x = left;
  for (const c of columns) {
    const w = c === 'description' ? (columns.length === 2 ? 330 : 210) : c === 'quantity' ? 60 : 95;
    colX[c] = c === 'description' ? x : x + w; // numbers are right-aligned at their column's right end
    x += w + (c === 'quantity' && columns[0] === 'quantity' ? 25 : 0);
  }
  void textCols;
  const headerWords = Object.fromEntries(columns.map((c) => [c, r.pick(WORDS.columns[c][lang])]));
  for (const c of columns) {
    sheet.put(headerWords[c] ?? '', colX[c] ?? left, {
      bold: true,
      align: c === 'description' ? 'left' : 'right',
    });
  }
  sheet.down(1.3);
  const itemMoney = r.chance(0.5) ? money : (v: number) => formatNumber(v, locale, plainGroups);
  for (const item of a.items) {
    for (const c of columns) {
      const text =
        c === 'description'
          ? item.description
          : c === 'quantity'
            ? String(item.quantity)
            : c === 'unit'
              ? itemMoney(item.unit)
              : itemMoney(item.total);
      sheet.put(text, colX[c] ?? left, { align: c === 'description' ? 'left' : 'right' });
    }
    sheet.down();
  }
  sheet.down();

  // Totals: label and value across a tab stop, or "Label: value".
  const totals = r.pick(['tab', 'colon']);
  layout.push(`totals-${totals}`);
  const labelX = sheet.width * 0.55;
  const taxLabel = r.pick(WORDS.tax[lang]).replace('{r}', percentText(a.rate, locale, r));
  const rows: [string, number][] = [];
  const printNet = a.rate !== 0 || r.chance(0.5);
  if (printNet) rows.push([r.pick(WORDS.net[lang]), a.net]);
  if (a.rate !== 0) rows.push([taxLabel, a.tax]);
  rows.push([r.pick(WORDS.total[lang]), a.total]);
  for (const [label, value] of rows) {
    if (totals === 'tab') {
      sheet.put(label, labelX, { bold: label === rows.at(-1)?.[0] });
      sheet.put(money(value), right, { align: 'right' });
    } else {
      sheet.put(`${label}: ${money(value)}`, labelX);
    }
    sheet.down();
  }
  sheet.down(2);
  for (const line of WORDS.footer[lang]) {
    if (r.chance(0.6)) {
      sheet.put(line, left, { size: sheet.size - 1 });
      sheet.down();
    }
  }

  const fields: Record<string, unknown> = {
    invoice_number: simple(number),
    date: simple(iso(issued)),
    due_date: simple(due ? iso(due) : null),
    supplier_name: simple(supplier),
    supplier_phone_number: simple(phonePrinted ? phone : null),
    customer_name: simple(customerPrinted ? customer : null),
    reference_numbers: { items: order ? [simple(order)] : [] },
    total_net: simple(printNet ? a.net : null),
    total_tax: simple(a.rate !== 0 ? a.tax : null),
    total_amount: simple(a.total),
    line_items: {
      items: a.items.map((i) => ({
        fields: {
          description: simple(i.description),
          ...(columns.includes('quantity' as never) ? { quantity: simple(i.quantity) } : {}),
          ...(columns.includes('unit' as never) ? { unit_price: simple(i.unit) } : {}),
          total_price: simple(i.total),
        },
      })),
    },
    locale: {
      fields: {
        language: simple(lang),
        currency: simple(locale.currency),
        country: simple(countryPrinted ? locale.country : null),
      },
    },
    document_type: simple('invoice'),
  };
  return {
    name: `invoice-${locale.id}-${index}`,
    layout: layout.join(' '),
    modelId: INVOICE_MODEL_ID,
    width: sheet.width,
    height: sheet.height,
    texts: sheet.texts,
    truth: { inference: { result: { fields } } },
  };
}

/** One till receipt: store name, address, date and time, items, totals, payment, thanks. */
function receipt(r: Rng, index: number): GeneratedDocument {
  const locale = r.pick(LOCALES);
  const { lang } = locale;
  const sheet = new Sheet(260, 600, r.pick([8, 9, 9]), 40);
  const layout: string[] = [locale.id];
  const left = 20;
  const right = sheet.width - 20;
  const mid = sheet.width / 2;
  const moneyStyle: MoneyStyle = r.pick([
    'bare',
    'bare',
    locale.symbolAfter ? 'symbol-after' : 'symbol-before',
  ]);
  layout.push(moneyStyle);
  const money = (v: number): string => formatMoney(v, locale, moneyStyle, true);
  const rate = r.pick(locale.taxRates.filter((t) => t !== 0));
  const a = amounts(r, RECEIPT_ITEMS[lang], rate, r.int(1, 4), true);
  const store = r.pick(STORES[lang]);
  const phone = locale.phone(r);
  const when: DateParts = {
    y: r.pick([2025, 2026]),
    m: r.int(1, 12),
    d: r.chance(0.5) ? r.int(1, 12) : r.int(13, 28),
  };
  const dateFormat = r.pick(locale.dates);
  const number = r.chance(0.7) ? r.digits(r.int(4, 6)) : undefined;
  const tip = lang === 'en' && r.chance(0.3) ? round2(a.total * 0.15) : undefined;

  sheet.put(store, mid, { size: sheet.size + 4, bold: true, align: 'center' });
  sheet.down(1.4);
  for (const line of locale.address(r)) {
    sheet.put(line, mid, { align: 'center' });
    sheet.down();
  }
  const phonePrinted = r.chance(0.6);
  if (phonePrinted) {
    sheet.put(`${r.pick(WORDS.phone[lang]).replace(/:$/, '')}: ${phone}`, mid, { align: 'center' });
    sheet.down();
  }
  sheet.down();
  const title = r.pick(WORDS.receiptTitle[lang]);
  if (title !== '') {
    sheet.put(title, mid, { bold: true, align: 'center' });
    sheet.down(1.5);
  }
  const time = `${pad(r.int(7, 22))}:${pad(r.int(0, 59))}`;
  const dateStyle = r.pick(['unlabelled', 'labelled']);
  layout.push(`date-${dateStyle}`);
  if (dateStyle === 'unlabelled') {
    sheet.put(`${dateFormat(when)}  ${time}`, left);
  } else {
    sheet.put(`${r.pick(WORDS.date[lang])}: ${dateFormat(when)}`, left);
    sheet.put(time, right, { align: 'right' });
  }
  sheet.down();
  if (number) {
    sheet.put(`${r.pick(WORDS.receiptNo[lang])} ${number}`, left);
    sheet.down();
  }
  sheet.down();
  const withHeader = r.chance(0.5);
  layout.push(withHeader ? 'items-header' : 'items-bare');
  if (withHeader) {
    sheet.put(r.pick(WORDS.columns.description[lang]), left, { bold: true });
    sheet.put(r.pick(WORDS.columns.quantity[lang]), right - 70, { bold: true, align: 'right' });
    sheet.put(r.pick(WORDS.columns.amount[lang]), right, { bold: true, align: 'right' });
    sheet.down();
  }
  for (const item of a.items) {
    if (withHeader) {
      sheet.put(item.description, left);
      sheet.put(String(item.quantity), right - 70, { align: 'right' });
    } else {
      sheet.put(item.quantity > 1 ? `${item.quantity} x ${item.description}` : item.description, left);
    }
    sheet.put(money(item.total), right, { align: 'right' });
    sheet.down();
  }
  sheet.down(0.5);
  const rows: [string, number][] = [];
  const printNet = r.chance(0.5);
  if (printNet) rows.push([r.pick(WORDS.net[lang]), a.net]);
  rows.push([r.pick(WORDS.tax[lang]).replace('{r}', percentText(rate, locale, r)), a.tax]);
  if (tip !== undefined) rows.push([r.pick(WORDS.tip[lang]), tip]);
  const total = round2(a.total + (tip ?? 0));
  // A till without currency signs names its currency on the total line ("SUMME EUR"), or nowhere.
  const currencyPrinted = moneyStyle !== 'bare' || r.chance(0.5);
  const totalLabel = r.pick(WORDS.total[lang]);
  rows.push([
    moneyStyle === 'bare' && currencyPrinted ? `${totalLabel} ${locale.currency}` : totalLabel,
    total,
  ]);
  for (const [label, value] of rows) {
    sheet.put(label, left, { bold: value === total });
    sheet.put(money(value), right, { align: 'right' });
    sheet.down();
  }
  sheet.down(0.5);
  const payment = r.pick(WORDS.payment[lang]);
  sheet.put(payment, left);
  sheet.put(money(total), right, { align: 'right' });
  sheet.down(2);
  sheet.put(r.pick(WORDS.receiptFooter[lang]), mid, { align: 'center' });

  const fields: Record<string, unknown> = {
    date: simple(iso(when)),
    supplier_name: simple(store),
    supplier_phone_number: simple(phonePrinted ? phone : null),
    receipt_number: simple(number ?? null),
    total_net: simple(printNet ? a.net : null),
    total_tax: simple(a.tax),
    tips_gratuity: simple(tip ?? null),
    total_amount: simple(total),
    line_items: {
      items: a.items.map((i) => ({
        fields: {
          description: simple(i.description),
          quantity: simple(withHeader || i.quantity > 1 ? i.quantity : null),
          total_price: simple(i.total),
        },
      })),
    },
    locale: {
      fields: { language: simple(lang), currency: simple(currencyPrinted ? locale.currency : null) },
    },
    document_type: simple('receipt'),
  };
  return {
    name: `receipt-${locale.id}-${index}`,
    layout: layout.join(' '),
    modelId: RECEIPT_MODEL_ID,
    width: sheet.width,
    height: sheet.height,
    texts: sheet.texts,
    truth: { inference: { result: { fields } } },
  };
}

/** `count` documents from `seed`: about two invoices for each receipt. */
export function generateDocuments(seed: number, count: number): GeneratedDocument[] {
  const r = new Rng(seededRandom(seed));
  return Array.from({ length: count }, (_, i) => (r.chance(0.65) ? invoice(r, i) : receipt(r, i)));
}

/** A text-layer PDF of the document (Helvetica, its bold for titles and labels). */
export async function renderPdf(doc: GeneratedDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([doc.width, doc.height]);
  for (const t of doc.texts) {
    const font: PDFFont = t.bold ? bold : regular;
    const width = font.widthOfTextAtSize(t.text, t.size);
    const x = t.align === 'right' ? t.x - width : t.align === 'center' ? t.x - width / 2 : t.x;
    page.drawText(t.text, { x, y: doc.height - t.y, size: t.size, font });
  }
  return pdf.save();
}

/** A fresh seed for a run (printed by the callers, so a failure can be replayed with FIELDS_SEED). */
export function seedFromEnv(env: Record<string, string | undefined> = process.env): number {
  const given = env['FIELDS_SEED'];
  if (given !== undefined && given.trim() !== '' && Number.isFinite(Number(given)))
    return Number(given) >>> 0;
  return Math.floor(Math.random() * 2 ** 31);
}
