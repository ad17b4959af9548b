import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { PATH_ALIASES } from './path-aliases.ts'
import { precompressAssets, prerenderLanding } from './scripts/vite/web-build-plugins.ts'

const apiTarget = `http://localhost:${process.env.API_PORT ?? '3001'}`

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), prerenderLanding(), precompressAssets()],
  resolve: { alias: PATH_ALIASES },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // Two pages: the app's shell, and the landing page (prerendered, without the router).
    rollupOptions: { input: { index: 'src/web/index.html', landing: 'src/web/landing.html' } },
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    // In development the API runs beside Vite (npm run dev); the browser sees one origin.
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/.well-known': { target: apiTarget, changeOrigin: false },
    },
  },
})
