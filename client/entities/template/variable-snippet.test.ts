import { describe, expect, it } from 'vitest';
import { snippetOf } from './variable-snippet.ts';

describe('snippetOf', () => {
  it('inserts a value as an output', () => {
    expect(snippetOf('lead.number')).toBe('{{ lead.number }}');
  });

  it('inserts a loop for a list, and a list item member as the loop variable', () => {
    expect(snippetOf('policy.premiumItems[]')).toBe(
      '{% for item in policy.premiumItems %}{% endfor %}',
    );
    expect(snippetOf('policy.premiumItems[].price')).toBe('{{ item.price }}');
  });
});
