import type { SystemTemplate } from './doc-template-store.ts';

/**
 * The sources every workspace starts with for its product information sheets and its static
 * documents (decision 020), in German like the other system templates. Data only, so that the
 * template store and the issuers both read it without importing each other.
 */

/** The product information sheet (IPID) of a product version, issued when the version goes live. */
export const IPID_TEMPLATE: SystemTemplate = {
  slug: 'ipid',
  name: 'Produktinformationsblatt (IPID)',
  kind: 'ipid',
  body: `<h1>Produktinformationsblatt</h1>
<p>Informationsblatt zu Versicherungsprodukten (IPID) · {{ tenant.name }}</p>
<table>
  <tr><th>Produkt</th><td>{{ product.name }}</td></tr>
  <tr><th>Produktversion</th><td>Version {{ product.version }}{% if product.description != "" %} – {{ product.description }}{% endif %}</td></tr>
  <tr><th>Vertragslaufzeit</th><td>{{ product.contractDurationDays }} Tage</td></tr>
</table>
<h2>Was ist versichert?</h2>
<ul>
{% for coverage in product.coverages %}  <li>{{ coverage.name }}{% if coverage.group != "" %} ({{ coverage.group }}){% endif %}</li>
{% else %}  <li>Die Leistungen ergeben sich aus den Versicherungsbedingungen.</li>
{% endfor %}</ul>
<h2>Versicherte Gegenstände und Angaben</h2>
{% for object in product.insuredObjects %}{% if object.name != "default" %}<h3>{{ object.label }}</h3>
<ul>
{% for field in object.fields %}  <li>{{ field.label }}</li>
{% else %}  <li>Keine weiteren Angaben</li>
{% endfor %}</ul>
{% endif %}{% endfor %}<h2>Wo bin ich versichert?</h2>
<p>Der Versicherungsschutz gilt in dem in den Versicherungsbedingungen genannten Geltungsbereich.</p>
<h2>Welche Verpflichtungen habe ich?</h2>
<ul>
  <li>Beantworten Sie die Fragen vor Vertragsschluss wahrheitsgemäß und vollständig.</li>
  <li>Zahlen Sie den Beitrag rechtzeitig und teilen Sie uns Änderungen umgehend mit.</li>
  <li>Melden Sie einen Schaden unverzüglich.</li>
</ul>
<p>Dieses Blatt gibt einen Überblick; maßgeblich sind der Versicherungsschein und die Versicherungsbedingungen. Stand {{ issuedAt | day }}.</p>`,
};

/**
 * The static documents a workspace starts with, each published under its slug as key: the terms
 * and conditions, the privacy notice and the complaints rules. Only the workspace is named.
 */
export const STATIC_TEMPLATES: readonly SystemTemplate[] = [
  {
    slug: 'terms',
    name: 'Allgemeine Geschäftsbedingungen',
    kind: 'terms',
    body: `<h1>Allgemeine Geschäftsbedingungen</h1>
<p>der {{ tenant.name }}, Stand {{ issuedAt | day }}</p>
<h2>§ 1 Geltungsbereich</h2>
<p>Diese Bedingungen gelten für alle Verträge, die Sie mit der {{ tenant.name }} schließen, soweit der Versicherungsschein und die besonderen Versicherungsbedingungen nichts anderes bestimmen.</p>
<h2>§ 2 Beginn des Versicherungsschutzes</h2>
<p>Der Versicherungsschutz beginnt zu dem im Versicherungsschein genannten Zeitpunkt, wenn der erste Beitrag rechtzeitig gezahlt ist.</p>
<h2>§ 3 Beitragszahlung</h2>
<p>Die Beiträge sind zu den vereinbarten Fälligkeiten zu zahlen. Bei Zahlungsverzug gelten die gesetzlichen Regelungen.</p>
<h2>§ 4 Kündigung</h2>
<p>Der Vertrag kann von beiden Seiten zum Ablauf der vereinbarten Laufzeit in Textform gekündigt werden.</p>`,
  },
  {
    slug: 'privacy-notice',
    name: 'Datenschutzhinweise',
    kind: 'static',
    body: `<h1>Datenschutzhinweise</h1>
<p>Mit diesen Hinweisen informiert die {{ tenant.name }} über die Verarbeitung Ihrer personenbezogenen Daten (Art. 13 und 14 DSGVO). Stand {{ issuedAt | day }}.</p>
<h2>Verantwortlicher</h2>
<p>{{ tenant.name }}</p>
<h2>Zwecke und Rechtsgrundlagen</h2>
<p>Wir verarbeiten Ihre Daten, um den Versicherungsvertrag anzubahnen, abzuschließen und zu erfüllen (Art. 6 Abs. 1 lit. b DSGVO) sowie um gesetzliche Pflichten zu erfüllen (Art. 6 Abs. 1 lit. c DSGVO).</p>
<h2>Ihre Rechte</h2>
<p>Sie haben das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung, Datenübertragbarkeit und Widerspruch sowie das Recht, sich bei einer Aufsichtsbehörde zu beschweren.</p>`,
  },
  {
    slug: 'complaints',
    name: 'Beschwerden und Schlichtung',
    kind: 'mediation',
    body: `<h1>Beschwerden und Schlichtung</h1>
<p>Sind Sie mit einer Entscheidung der {{ tenant.name }} nicht zufrieden, wenden Sie sich bitte zuerst an uns; wir antworten innerhalb von zwei Wochen.</p>
<h2>Versicherungsombudsmann</h2>
<p>Verbraucher können sich an den Versicherungsombudsmann e. V., Postfach 08 06 32, 10006 Berlin, wenden. Das Verfahren ist für Sie kostenfrei.</p>
<h2>Aufsicht</h2>
<p>Bundesanstalt für Finanzdienstleistungsaufsicht (BaFin), Graurheindorfer Straße 108, 53117 Bonn.</p>
<p>Stand {{ issuedAt | day }}</p>`,
  },
];
