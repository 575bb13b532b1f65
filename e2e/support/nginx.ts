/**
 * nginx as the deployment example runs it (deploy/nginx/extraction-review.conf), started by a journey:
 * the committed site with its ports, upstream addresses and file paths replaced by this run's, inside
 * a minimal main configuration, as a foreground child process on 127.0.0.1. Every replacement must
 * find what it replaces, so an edit of the example that the journey no longer follows fails here
 * rather than testing something else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** Debian's nginx (its `nginx` package, installed by .ci/run when missing). */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export const SITE_EXAMPLE = path.join('deploy', 'nginx', 'extraction-review.conf');

export interface SiteSubstitutions {
  /** The copies' `host:port`, in place of the example's two. */
  copies: [string, string];
  httpsPort: number;
  httpPort: number;
  certificate: string;
  key: string;
  accessLog: string;
  errorLog: string;
}

/** The example site with this run's ports and paths (IPv6 listeners dropped: CI may have no IPv6). */
export function renderSite(site: string, to: SiteSubstitutions): string {
  const replacements: [RegExp, string][] = [
    [/server 127\.0\.0\.1:8081 /, `server ${to.copies[0]} `],
    [/server 127\.0\.0\.1:8082 /, `server ${to.copies[1]} `],
    [/listen 443 ssl http2;/, `listen 127.0.0.1:${to.httpsPort} ssl http2;`],
    [/listen 80;/, `listen 127.0.0.1:${to.httpPort};`],
    [/\n\s*listen \[::\]:443 ssl http2;/, ''],
    [/\n\s*listen \[::\]:80;/, ''],
    [/ssl_certificate \/etc\/ssl\/extraction-review\/fullchain\.pem;/, `ssl_certificate ${to.certificate};`],
    [/ssl_certificate_key \/etc\/ssl\/extraction-review\/privkey\.pem;/, `ssl_certificate_key ${to.key};`],
    [/\/var\/log\/nginx\/extraction-review\.access\.log/, to.accessLog],
    [/\/var\/log\/nginx\/extraction-review\.error\.log/, to.errorLog],
  ];
  return replacements.reduce((text, [pattern, value]) => {
    if (!pattern.test(text)) throw new Error(`${SITE_EXAMPLE} no longer has ${String(pattern)}`);
    return text.replace(pattern, value);
  }, site);
}

/** A port free on 127.0.0.1 now (nginx cannot be told to pick one and say which). */
export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

export interface Nginx {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** `http://127.0.0.1:<port>`: the example's redirect to HTTPS. */
  plainUrl: string;
  /** The site's access log, one JSON object per line. */
  accessLog(): Promise<NginxAccessLine[]>;
  output(): string;
  stop(): Promise<void>;
}

/** The fields of the example's `log_format extraction_review` that journeys read. */
export interface NginxAccessLine {
  request_id: string;
  uri: string;
  status: number;
  upstream: string;
}

/**
 * nginx in the foreground (`daemon off`, one process: no workers to switch to `nobody`, who could not
 * write this run's temporary folders) with the example site, rendered into `dir`; resolves once it
 * accepts connections.
 */
export async function startNginx(
  dir: string,
  site: Omit<SiteSubstitutions, 'httpsPort' | 'httpPort' | 'accessLog' | 'errorLog'>,
): Promise<Nginx> {
  if (!existsSync(NGINX))
    throw new Error(
      `nginx is not installed (${NGINX}): apt-get install nginx, as .ci/run does, or set NGINX_PATH`,
    );
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  const accessLog = path.join(dir, 'access.log');
  const rendered = renderSite(await readFile(SITE_EXAMPLE, 'utf8'), {
    ...site,
    httpsPort,
    httpPort,
    accessLog,
    errorLog: path.join(dir, 'error.log'),
  });
  await writeFile(path.join(dir, 'site.conf'), rendered);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  await writeFile(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'master_process off;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      'error_log stderr warn;',
      'events { worker_connections 256; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
      `  include ${path.join(dir, 'site.conf')};`,
      '}',
      '',
    ].join('\n'),
  );
  const child = spawn(NGINX, ['-p', dir, '-e', 'stderr', '-c', path.join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await listening(child, httpsPort, () => output);
  return {
    url: `https://127.0.0.1:${httpsPort}`,
    plainUrl: `http://127.0.0.1:${httpPort}`,
    output: () => output,
    accessLog: async () =>
      (await readFile(accessLog, 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as NginxAccessLine),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Until a connection to `port` succeeds; fails with nginx's own words when it exits first. */
async function listening(child: ChildProcess, port: number, output: () => string): Promise<void> {
  const exited = once(child, 'exit').then(([code]) => `nginx exited (${String(code)}) before listening`);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const attempt = await Promise.race([
      exited,
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      }),
    ]);
    if (attempt === true) return;
    if (typeof attempt === 'string') throw new Error(`${attempt}:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
