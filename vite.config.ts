import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const require = createRequire(import.meta.url);
const pdfjsDir = path.dirname(require.resolve('pdfjs-dist/package.json'));
const PDFJS_ASSET_DIRS = ['cmaps', 'standard_fonts', 'wasm', 'iccs'];

/**
 * Serves pdf.js's cMaps, standard fonts, wasm decoders and ICC profiles from our own origin
 * (`/pdfjs/<dir>/`) in dev and emits them into `dist/pdfjs/` on build, so nothing is fetched from a
 * CDN. react-pdf's README suggests vite-plugin-static-copy, whose current major needs Node 22.
 */
function pdfjsAssets(): Plugin {
  return {
    name: 'pdfjs-assets',
    configureServer(server) {
      server.middlewares.use('/pdfjs/', (req, res, next) => {
        const rel = decodeURIComponent((req.url ?? '').split('?')[0] ?? '').replace(/^\/+/, '');
        const [dir, ...rest] = rel.split('/');
        if (!dir || !PDFJS_ASSET_DIRS.includes(dir) || rest.some((p) => p === '..' || p === ''))
          return next();
        const file = path.join(pdfjsDir, dir, ...rest);
        if (!fs.existsSync(file) || !fs.statSync(file).isFile()) return next();
        if (file.endsWith('.wasm')) res.setHeader('Content-Type', 'application/wasm');
        fs.createReadStream(file).pipe(res);
      });
    },
    generateBundle() {
      for (const dir of PDFJS_ASSET_DIRS) {
        for (const f of fs.readdirSync(path.join(pdfjsDir, dir))) {
          this.emitFile({
            type: 'asset',
            fileName: `pdfjs/${dir}/${f}`,
            source: fs.readFileSync(path.join(pdfjsDir, dir, f)),
          });
        }
      }
    },
  };
}

// In dev, Vite serves the app and forwards /api to the app server (see scripts/dev.mjs).
const appServerPort = process.env.PORT ?? '8080';

export default defineConfig({
  plugins: [react(), tailwindcss(), pdfjsAssets()],
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: `http://127.0.0.1:${appServerPort}`, changeOrigin: false } },
  },
  build: {
    // pdf.js's worker alone is over a megabyte; it is loaded only when a document is opened.
    chunkSizeWarningLimit: 1400,
    sourcemap: true,
  },
});
