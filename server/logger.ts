import pino, { type Logger } from 'pino';

/** Structured JSON logs. Anything that could carry a token or a password is redacted by path,
 * so a careless `log.info({ req })` cannot leak one. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'bff' },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.accessToken',
        '*.refreshCookie',
        '*.password',
        '*.newPassword',
        '*.oldPassword',
        '*.challenge',
        'accessToken',
        'password',
      ],
      censor: '[redacted]',
    },
  });
}
