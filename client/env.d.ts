/** Replaced at build time by the locale build id (see vite.config.ts). */
declare const __BUILD_ID__: string;
