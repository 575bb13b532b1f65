/**
 * The common wordings of invoices and receipts in English, French, German and Spanish, beside what a
 * field's own schema says (label-phrases.ts reads the schema; this adds the wordings a schema cannot
 * list them all). A field takes a vocabulary's labels when its `name` (underscores as spaces) is one
 * of the vocabulary's `names`, so a replaced data schema with an `invoice_number` or a `total_tax`
 * field is read the same way; other fields only have their schema's labels.
 *
 * A new wording is one more string in a list. Each label is written as printed, and may carry one
 * mark:
 *
 * - `Number:` (a trailing colon): a label only when the page prints the colon after it (a word this
 *   common is a label only where it is clearly one);
 * - `…of` (a leading ellipsis): a word that joins a value to what comes before ("INV/26/1187 of
 *   23.06.2026", "Facture n° 12 du 23/06/2026"): the value must follow it immediately, on its line.
 *
 * Labels from here count as the schema's own (exact): the finder's other evidence (a longer label, a
 * colon, the value's type and form) decides between them.
 */

export interface Vocabulary {
  /** Field names (underscores as spaces) this vocabulary serves. */
  names: readonly string[];
  /** Labels, as printed, by language. */
  labels: Readonly<Record<'en' | 'fr' | 'de' | 'es', readonly string[]>>;
}

export const VOCABULARIES: readonly Vocabulary[] = [
  {
    names: ['invoice number', 'invoice no', 'invoice id', 'bill number'],
    labels: {
      en: [
        'Invoice No.',
        'Invoice Number',
        'Invoice #',
        'Invoice Nr',
        'Invoice ID',
        'Inv. No.',
        'Inv #',
        'Bill #',
        'Bill No.',
        'Bill number',
        'Number',
        'No.:',
        'Invoice:',
        '…Invoice',
      ],
      fr: [
        'N° de facture',
        'Numéro de facture',
        'Facture n°',
        'N° facture',
        'Facture no',
        'Numéro',
        'N°:',
        '…Facture',
      ],
      de: [
        'Rechnungsnummer',
        'Rechnungs-Nr.',
        'Rechnung Nr.',
        'Rechnungsnr.',
        'Re.-Nr.',
        'Rechnung-Nr.',
        'Nummer',
        'Nr.:',
        '…Rechnung',
      ],
      es: [
        'Nº de factura',
        'Número de factura',
        'Factura nº',
        'Nº factura',
        'Núm. factura',
        'Número',
        '…Factura',
      ],
    },
  },
  {
    names: ['receipt number', 'receipt no', 'ticket number', 'transaction number'],
    labels: {
      en: [
        'Receipt #',
        'Receipt No.',
        'Receipt number',
        'Trans #',
        'Transaction',
        'Transaction #',
        'Check #',
      ],
      fr: ['Ticket n°', 'N° de ticket', 'N° ticket', 'Reçu n°', 'Bon n°'],
      de: ['Beleg-Nr.', 'Belegnummer', 'Bon-Nr.', 'Bonnummer', 'Beleg Nr.', 'Quittung Nr.'],
      es: ['Ticket nº', 'Nº ticket', 'Nº de ticket', 'Factura simplificada nº', 'Nº de recibo'],
    },
  },
  {
    names: ['date', 'invoice date', 'issue date', 'document date', 'purchase date', 'transaction date'],
    labels: {
      en: [
        'Date',
        'Invoice date',
        'Date of issue',
        'Issue date',
        'Issued',
        'Issued on',
        'Dated',
        'Bill date',
        '…of',
        '…dated',
      ],
      fr: ['Date', 'Date de facture', 'Date de facturation', "Date d'émission", 'Émise le', '…du', '…le'],
      de: ['Datum', 'Rechnungsdatum', 'Ausstellungsdatum', 'Belegdatum', 'Kaufdatum', '…vom'],
      es: [
        'Fecha',
        'Fecha de factura',
        'Fecha de emisión',
        'Fecha factura',
        'Fecha de expedición',
        '…de fecha',
        '…del',
      ],
    },
  },
  {
    names: ['due date', 'payment due date', 'payment date'],
    labels: {
      en: [
        'Due date',
        'Due',
        'Payment due',
        'Due by',
        'Pay by',
        'Payment due date',
        'Payable by',
        'Date due',
        'Please pay by',
      ],
      fr: [
        'Échéance',
        "Date d'échéance",
        'À payer avant le',
        'Payable avant le',
        'À régler avant le',
        'Date limite de paiement',
        'Date limite',
      ],
      de: [
        'Fällig am',
        'Fälligkeitsdatum',
        'Fälligkeit',
        'Zahlbar bis',
        'Zahlbar bis zum',
        'Zahlungsziel',
        'Fällig',
      ],
      es: [
        'Vencimiento',
        'Fecha de vencimiento',
        'Fecha vencimiento',
        'Pagar antes de',
        'Fecha límite de pago',
        'Vence',
      ],
    },
  },
  {
    names: ['reference numbers', 'purchase order', 'purchase order number', 'po number', 'order number'],
    labels: {
      en: ['PO Number', 'PO #', 'PO No.', 'Purchase order', 'Order No.', 'Order number', 'Your order'],
      fr: ['Bon de commande', 'N° de commande', 'Commande n°', 'Votre commande', 'Réf. commande'],
      de: ['Bestellnummer', 'Bestell-Nr.', 'Auftragsnummer', 'Auftrags-Nr.', 'Ihre Bestellung'],
      es: ['Nº de pedido', 'Número de pedido', 'Pedido', 'Pedido nº', 'Su pedido'],
    },
  },
  {
    names: ['supplier name', 'vendor name', 'merchant name', 'seller name'],
    labels: {
      en: ['Supplier', 'Vendor', 'Seller', 'From:', 'Merchant', 'Issued by'],
      fr: ['Fournisseur', 'Émetteur', 'Vendeur', 'De:'],
      de: ['Lieferant', 'Absender', 'Verkäufer', 'Von:'],
      es: ['Proveedor', 'Emisor', 'Vendedor', 'De:'],
    },
  },
  {
    names: ['customer name', 'client name', 'buyer name'],
    labels: {
      en: ['Bill to', 'Billed to', 'Invoice to', 'Sold to', 'Customer', 'Client'],
      fr: ['Facturé à', 'Facturer à', 'Adressé à', 'Client', 'Destinataire'],
      de: ['Rechnungsempfänger', 'Rechnung an', 'Kunde', 'Empfänger', 'Rechnungsadresse'],
      es: ['Facturar a', 'Facturado a', 'Cliente', 'Destinatario'],
    },
  },
  {
    names: ['customer address', 'billing address', 'client address'],
    labels: {
      en: ['Bill to', 'Billed to', 'Invoice to', 'Sold to', 'Billing address'],
      fr: ['Facturé à', 'Facturer à', 'Adressé à', 'Adresse de facturation', 'Destinataire'],
      de: ['Rechnungsempfänger', 'Rechnung an', 'Rechnungsadresse', 'Empfänger'],
      es: ['Facturar a', 'Facturado a', 'Dirección de facturación', 'Destinatario'],
    },
  },
  {
    names: ['supplier phone number', 'phone number', 'phone', 'telephone'],
    labels: {
      en: ['Phone', 'Tel', 'Telephone', 'Phone no.', 'Ph.'],
      fr: ['Tél.', 'Tél', 'Téléphone', 'Tel.'],
      de: ['Telefon', 'Tel.', 'Fon'],
      es: ['Teléfono', 'Tel.', 'Tlf.', 'Tfno.', 'Telf.'],
    },
  },
  {
    names: ['total net', 'net total', 'subtotal', 'net amount', 'total excl tax'],
    labels: {
      en: [
        'Subtotal',
        'Sub-total',
        'Sub total',
        'Net',
        'Net amount',
        'Net total',
        'Total net',
        'Total excl. tax',
        'Total excluding tax',
        'Total before tax',
        'Amount before tax',
        'Total excl. VAT',
      ],
      fr: ['Total HT', 'Montant HT', 'Sous-total', 'Sous total', 'Total hors taxes', 'Net HT', 'Total H.T.'],
      de: [
        'Zwischensumme',
        'Nettobetrag',
        'Summe netto',
        'Netto',
        'Gesamt netto',
        'Nettosumme',
        'Netto gesamt',
        'Warenwert',
      ],
      es: ['Subtotal', 'Base imponible', 'Importe neto', 'Total sin IVA', 'Neto', 'Base'],
    },
  },
  {
    names: ['total tax', 'total vat', 'tax total', 'vat total'],
    labels: {
      en: ['Tax', 'Total tax', 'Sales tax', 'Tax amount', 'VAT', 'VAT amount', 'Total VAT', 'GST', 'HST'],
      fr: ['TVA', 'Montant TVA', 'Total TVA', 'Montant de la TVA'],
      de: ['MwSt.', 'MwSt', 'Mwst.', 'USt.', 'USt', 'Umsatzsteuer', 'Mehrwertsteuer', 'Steuer'],
      es: ['IVA', 'Cuota IVA', 'Total IVA', 'Importe IVA', 'Impuestos'],
    },
  },
  {
    names: ['taxes', 'tax lines', 'tax details'],
    labels: {
      en: ['Tax', 'Sales tax', 'VAT', 'GST', 'HST', 'PST'],
      fr: ['TVA'],
      de: ['MwSt.', 'MwSt', 'USt.', 'USt', 'Umsatzsteuer', 'Mehrwertsteuer'],
      es: ['IVA'],
    },
  },
  {
    names: ['total amount', 'total', 'amount due', 'grand total', 'total due'],
    labels: {
      en: [
        'Total',
        'Total amount',
        'Amount due',
        'Balance due',
        'Total due',
        'Grand total',
        'Total incl. tax',
        'Total including tax',
        'Total incl. VAT',
        'Amount payable',
        'Total to pay',
        'Invoice total',
      ],
      fr: [
        'Total TTC',
        'Montant TTC',
        'Net à payer',
        'Total à payer',
        'Montant total',
        'Montant à payer',
        'Reste à payer',
      ],
      de: [
        'Gesamtbetrag',
        'Rechnungsbetrag',
        'Summe',
        'Gesamt',
        'Gesamtsumme',
        'Bruttobetrag',
        'Endbetrag',
        'Zu zahlen',
        'Zahlbetrag',
        'Brutto',
      ],
      es: ['Total', 'Total factura', 'Importe total', 'Total a pagar', 'Importe a pagar'],
    },
  },
  {
    names: ['tips gratuity', 'tip', 'tips', 'gratuity'],
    labels: {
      en: ['Tip', 'Tips', 'Gratuity'],
      fr: ['Pourboire', 'Service'],
      de: ['Trinkgeld'],
      es: ['Propina'],
    },
  },
  {
    names: ['description'],
    labels: {
      en: ['Description', 'Item', 'Items', 'Service', 'Services', 'Product', 'Details'],
      fr: ['Désignation', 'Description', 'Article', 'Libellé', 'Prestation'],
      de: ['Beschreibung', 'Bezeichnung', 'Artikel', 'Leistung', 'Position'],
      es: ['Descripción', 'Concepto', 'Artículo', 'Producto'],
    },
  },
  {
    names: ['quantity', 'qty'],
    labels: {
      en: ['Qty', 'Quantity', 'Hours', 'Hrs', 'Units'],
      fr: ['Qté', 'Quantité', 'Qté.'],
      de: ['Menge', 'Anzahl', 'Anz.', 'Stück'],
      es: ['Cantidad', 'Cant.', 'Uds.', 'Unidades'],
    },
  },
  {
    names: ['unit price', 'price per unit'],
    labels: {
      en: ['Unit price', 'Price', 'Rate', 'Unit cost'],
      fr: ['Prix unitaire', 'P.U.', 'Prix unit.', 'PU HT', 'Prix'],
      de: ['Einzelpreis', 'E-Preis', 'Preis', 'Stückpreis'],
      es: ['Precio unitario', 'Precio unit.', 'Precio'],
    },
  },
  {
    names: ['total price', 'line total', 'amount'],
    labels: {
      en: ['Amount', 'Total', 'Line total', 'Total price'],
      fr: ['Montant', 'Montant HT', 'Total HT', 'Total'],
      de: ['Betrag', 'Gesamt', 'Gesamtpreis', 'Summe'],
      es: ['Importe', 'Total'],
    },
  },
];

/** Words that title a document: never a supplier's name or an identifier. */
export const TITLE_WORDS: readonly string[] = [
  'invoice',
  'tax invoice',
  'bill',
  'receipt',
  'sales receipt',
  'credit note',
  'quote',
  'facture',
  'reçu',
  'ticket',
  'ticket de caisse',
  'avoir',
  'devis',
  'rechnung',
  'quittung',
  'kassenbon',
  'beleg',
  'gutschrift',
  'angebot',
  'factura',
  'factura simplificada',
  'recibo',
  'ticket',
  'presupuesto',
];

/**
 * Words that join a value to the one before it ("INV/26/1187 of 23.06.2026"): an identifier ends
 * before them.
 */
export const CONNECTORS: readonly string[] = [
  'of',
  'dated',
  'from',
  'du',
  'le',
  'vom',
  'von',
  'de',
  'del',
  'fecha',
];

/**
 * A classification value's common printings in the four languages, beside the synonyms its
 * guidelines give: keyed by the value as the schema names it.
 */
export const CLASSIFICATION_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  invoice: ['invoice', 'facture', 'rechnung', 'factura'],
  receipt: [
    'receipt',
    'reçu',
    'ticket de caisse',
    'kassenbon',
    'quittung',
    'kassenbeleg',
    'recibo',
    'factura simplificada',
  ],
  credit_note: ['gutschrift', 'nota de crédito', 'factura rectificativa'],
  quote: ['angebot', 'presupuesto'],
  en: [
    'invoice',
    'amount due',
    'thank you',
    'receipt',
    'due date',
    'bill to',
    'tax',
    'quantity',
    'price',
    'customer',
    'phone',
    'item',
    'date of issue',
    'issue date',
    'page',
  ],
  fr: [
    'facture',
    'montant',
    'tva',
    'ttc',
    'merci',
    'quantité',
    'échéance',
    'désignation',
    'reçu',
    'client',
    'prix',
    'téléphone',
    'commande',
    'numéro',
    'paiement',
    'date de facture',
  ],
  de: [
    'rechnung',
    'betrag',
    'mwst',
    'summe',
    'menge',
    'datum',
    'gesamt',
    'netto',
    'vielen dank',
    'ust',
    'kunde',
    'preis',
    'telefon',
    'seite',
    'beschreibung',
    'bezeichnung',
    'zwischensumme',
  ],
  es: [
    'factura',
    'importe',
    'importes',
    'iva',
    'gracias',
    'fecha',
    'cantidad',
    'total a pagar',
    'base imponible',
    'vencimiento',
    'cliente',
    'precio',
    'teléfono',
    'página',
    'descripción',
    'pedido',
    'número',
  ],
};

/**
 * What a document shows about how it writes its dates, for numeric dates whose day and month could
 * swap (`11/03/2026`): each line matching a pattern is a vote for its order, with its weight. Month
 * first is the United States' order (dollars, US addresses and phone numbers); day first that of
 * Europe and most of the world (euros, pounds, francs, international dialling codes other than +1,
 * the postal code before the town, the four languages' invoice words).
 */
export const DATE_ORDER_EVIDENCE: readonly { order: 'dmy' | 'mdy'; pattern: RegExp; weight: number }[] = [
  // A US state and ZIP code: "Raleigh, NC 27601", "Austin TX 78701-1234".
  { order: 'mdy', pattern: /\b[A-Z]{2},? \d{5}(?:-\d{4})?\b/, weight: 2 },
  { order: 'mdy', pattern: /\b(?:USA|U\.S\.A\.|United States)\b/, weight: 2 },
  { order: 'mdy', pattern: /\bUSD\b|\bUS\$/, weight: 2 },
  // A North American phone number: "(919) 555-0123", "919-555-0123", "+1 919 555 0123".
  { order: 'mdy', pattern: /\(\d{3}\) ?\d{3}-\d{4}\b|\b\d{3}-\d{3}-\d{4}\b|\+1[ -]\d{3}/, weight: 1 },
  { order: 'mdy', pattern: /\$ ?\d/, weight: 0.5 },
  { order: 'dmy', pattern: /€|\bEUR\b|£|\bGBP\b|\bCHF\b/, weight: 2 },
  // An international dialling code other than +1.
  { order: 'dmy', pattern: /\+(?:[2-9]\d)\b/, weight: 1 },
  // A postal code before the town: "75002 Paris", "10115 Berlin", "8001 Zürich".
  { order: 'dmy', pattern: /(?:^|, )\d{4,5} \p{Lu}\p{Ll}+/u, weight: 1 },
  // A UK postcode: "EC1A 1BB", "LS1 4AB".
  { order: 'dmy', pattern: /\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b/, weight: 1 },
  {
    order: 'dmy',
    pattern:
      /\b(?:United Kingdom|England|Scotland|Ireland|France|Belgique|Deutschland|Germany|Österreich|Schweiz|Suisse|España|Spain|Italia|Nederland|Australia)\b/,
    weight: 2,
  },
  {
    order: 'dmy',
    pattern: /\b(?:Facture|TVA|TTC|Rechnung|MwSt|USt|Factura|IVA|Fecha|Datum|Échéance)\b/i,
    weight: 1,
  },
];

/** Currency codes printed after a label ("Total EUR", "SUMME EUR"): part of the label, not its value. */
export const CURRENCY_CODES: ReadonlySet<string> = new Set([
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'CAD',
  'AUD',
  'JPY',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'NZD',
]);
