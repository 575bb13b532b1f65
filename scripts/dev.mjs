#!/usr/bin/env node
// `npm run dev`: the app server (with the embedded reference service unless an upstream is set)
// plus Vite's dev server, which serves the app with hot reload and forwards /api to the app server.
import { spawn } from 'node:child_process';

const children = [
  spawn('node_modules/.bin/tsx', ['watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, DEV: '1' },
  }),
  spawn('node_modules/.bin/vite', [], { stdio: 'inherit' }),
];

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
