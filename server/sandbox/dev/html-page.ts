import type { Response } from 'express';

/** Sandbox pages (identity provider, outbox) are plain HTML: tiny, no script, their own CSP. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function sendPage(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy':
        "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      'Cache-Control': 'no-store',
    })
    .send(
      `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>`,
    );
}
