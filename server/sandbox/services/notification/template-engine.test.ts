import { describe, expect, it } from 'vitest';
import { checkLayout, checkTemplate, renderPart } from './template-engine.ts';
import { variablesOf } from './template-variables.ts';
import { SYSTEM_LAYOUT, SYSTEM_TEMPLATES, TEMPLATE_LANGUAGES } from './default-templates.ts';

const policy = variablesOf('policy');

describe('checkTemplate', () => {
  it('accepts the built-in templates and layout in every language', () => {
    for (const [kind, template] of Object.entries(SYSTEM_TEMPLATES))
      for (const language of TEMPLATE_LANGUAGES)
        for (const part of ['subject', 'html', 'text'] as const)
          expect(
            checkTemplate(template.bodies[language][part], variablesOf(kind as 'welcome')),
            `${kind} ${language} ${part}`,
          ).toEqual([]);
    expect(checkLayout(SYSTEM_LAYOUT.html, variablesOf('welcome'))).toEqual([]);
    expect(checkLayout(SYSTEM_LAYOUT.text, variablesOf('welcome'))).toEqual([]);
  });

  it('names the place of a syntax error, an unknown variable and a loop over a non-list', () => {
    expect(checkTemplate('Hallo\n  {{ policy.number }', policy)).toEqual([
      expect.objectContaining({ code: 'syntax_error', line: 2, column: 3 }),
    ]);
    expect(checkTemplate('{{ policy.holder.nam }}', policy)).toEqual([
      expect.objectContaining({ code: 'unknown_variable', name: 'policy.holder.nam', line: 1 }),
    ]);
    expect(checkTemplate('{% for x in policy.number %}{{ x.a }}{% endfor %}', policy)).toEqual([
      expect.objectContaining({ code: 'not_a_list', name: 'policy.number' }),
    ]);
    // A list's items are checked by their type; sizes, ranges and own variables pass.
    expect(
      checkTemplate(
        '{% for i in policy.premiumItems %}{{ i.name }}{{ forloop.index }}{% endfor %}' +
          '{{ policy.premiumItems.size }}{% for n in (1..3) %}{{ n }}{% endfor %}' +
          '{% assign who = policy.holder.name %}{{ who }}',
        policy,
      ),
    ).toEqual([]);
    expect(
      checkTemplate('{% for i in policy.premiumItems %}{{ i.price }}{% endfor %}', policy),
    ).toEqual([expect.objectContaining({ code: 'unknown_variable', name: 'i.price' })]);
  });

  it('refuses tags that read files, and unknown filters', () => {
    for (const tag of ['include', 'render', 'layout'])
      expect(checkTemplate(`{% ${tag} "x" %}`, policy)[0]).toMatchObject({
        code: 'tag_not_allowed',
        name: tag,
      });
    expect(checkTemplate('{{ policy.number | shell }}', policy)[0]?.code).toBe('syntax_error');
  });

  it('asks a layout to place the body exactly once', () => {
    expect(checkLayout('<div></div>', {})[0]?.code).toBe('missing_content');
    expect(checkLayout('{{ content }}{{ content }}', {})[0]?.code).toBe('missing_content');
    expect(checkLayout('<div>{{- content -}}</div>', {})).toEqual([]);
  });
});

describe('renderPart', () => {
  it('escapes values in HTML, keeps them in text, and places the body in the layout once', async () => {
    const values = { policy: { holder: { name: '<script>alert("Łódź")</script>' } } };
    const html = await renderPart(
      'html',
      '<p>{{ policy.holder.name }}</p>',
      values,
      '<main>{{ content }}</main>',
    );
    expect(html).toBe('<main><p>&lt;script&gt;alert(&#34;Łódź&#34;)&lt;/script&gt;</p></main>');
    const text = await renderPart(
      'text',
      'Hallo {{ policy.holder.name }}',
      values,
      '{{ content }}\n--',
    );
    expect(text).toBe('Hallo <script>alert("Łódź")</script>\n--');
  });

  it('stops a template that would run for ever', async () => {
    await expect(
      renderPart(
        'text',
        '{% for i in (1..100000000) %}{% for j in (1..100000000) %}x{% endfor %}{% endfor %}',
        {},
      ),
    ).rejects.toThrow();
  });
});

describe('the money and day filters', () => {
  const nbsp = (text: string) => text.replace(/\u00a0/g, ' ');
  it('writes integer cents as money in the language, and nothing for what is no number', async () => {
    expect(nbsp(await renderPart('text', '{{ c | money }}', { c: 148872 }))).toBe('1.488,72 €');
    expect(nbsp(await renderPart('text', "{{ c | money: 'PLN', 'pl' }}", { c: 5 }))).toBe(
      '0,05 zł',
    );
    expect(await renderPart('text', '{{ c | money }}', { c: 'abc' })).toBe('');
  });

  it('writes a day as written, whatever the time zone', async () => {
    expect(await renderPart('text', '{{ d | day }}', { d: '2026-01-01' })).toBe('01.01.2026');
    expect(await renderPart('text', "{{ d | day: 'en' }}", { d: '2026-01-01T23:30:00Z' })).toBe(
      '01/01/2026',
    );
    expect(await renderPart('text', '{{ d | day }}', { d: null })).toBe('');
  });

  it('checks the document kinds: the policy schedule saves, an unknown filter does not', async () => {
    const { documentVariablesOf } = await import('./document-variables.ts');
    const vars = documentVariablesOf('policy');
    expect(checkTemplate('{{ policy.premiumCents | money }}', vars)).toEqual([]);
    expect(checkTemplate('{{ policy.premiumCents | euro }}', vars)).toEqual([
      expect.objectContaining({ code: 'syntax_error' }),
    ]);
  });
});
