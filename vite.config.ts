import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localesBuildId } from './server/build-id.ts';

export default defineConfig({
  root: 'client',
  publicDir: false,
  plugins: [react(), tailwindcss()],
  define: { __BUILD_ID__: JSON.stringify(localesBuildId()) },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
  },
});
