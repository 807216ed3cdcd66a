/// <reference types="vitest/config" />
// Builds the islands: one runtime entry (src/main.ts) plus one lazily loaded chunk per island
// and a shared React chunk, all hashed, with .vite/manifest.json for the Rust server to read.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const pageStyles = readdirSync(new URL('src/styles/page/', import.meta.url)).filter((f) => f.endsWith('.css'));

export default defineConfig({
  // The server serves everything under dist/ at /assets/<file>.
  base: '/assets/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Files sit at the top of dist/, so their URLs are /assets/<file> (not /assets/assets/...).
    assetsDir: '',
    manifest: true,
    // The mask-icon sprite (src/styles/icons.svg) stays a file, hashed and cached like the
    // rest: inlined, each `url(icons.svg#name)` would repeat the whole sprite as a data: URL
    // and make one SVG document per icon again. Other assets follow Vite's 4 KiB rule.
    assetsInlineLimit: (file) => (file.endsWith('/styles/icons.svg') ? false : undefined),
    rolldownOptions: {
      // The runtime entry (with the site-wide stylesheet) plus one stylesheet per page group
      // (src/styles/page/*.css); the server links a page's own sheet after the site-wide one.
      input: [
        fileURLToPath(new URL('src/main.ts', import.meta.url)),
        ...pageStyles.map((file) => fileURLToPath(new URL(`src/styles/page/${file}`, import.meta.url))),
      ],
      output: {
        // React and react-dom in one shared chunk, loaded with the first island on a page.
        // The mounting code and the fallback helpers it shares with the form islands in one
        // more: every island needs both, and as two chunks they cost a second request.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'mount', test: /[\\/]src[\\/](mount\.tsx|lib[\\/]fallback\.ts)$/ },
          ],
        },
      },
    },
  },
  test: {
    // e2e/ belongs to Playwright.
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // A ceiling, not a wait: the tests that type with user-event take seconds on two busy
    // cores (CI runs other suites beside this one). Past Vitest's default 5 s one was failed
    // half way, and the typing it left running went into the next test's fields.
    testTimeout: 30_000,
  },
});
