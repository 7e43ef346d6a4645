import { describe, expect, it } from 'vitest';
import { fillIndex } from './vite-prerender-login.ts';

const INDEX = `<!doctype html>
<html lang="en">
  <head><title>Insurance Back Office</title><script type="module" src="/assets/index-x.js"></script></head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe('fillIndex', () => {
  it('puts the language, the title and the markup in, and nothing else', () => {
    const page = fillIndex(INDEX, 'pl', '<main>form</main>', 'Zaloguj się | <Product> & Co');
    expect(page).toContain('<html lang="pl">');
    expect(page).toContain('<title>Zaloguj się | &lt;Product> &amp; Co</title>');
    expect(page).toContain('<div id="root" data-prerendered="pl"><main>form</main></div>');
    expect(page).toContain('<script type="module" src="/assets/index-x.js"></script>');
  });

  it('refuses an index.html without an empty root, rather than writing a page without the form', () => {
    expect(() => fillIndex(INDEX.replace('<div id="root"></div>', ''), 'de', 'x', 'y')).toThrow(
      /no empty #root/,
    );
  });
});
