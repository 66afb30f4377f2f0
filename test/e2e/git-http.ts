/**
 * A git server on loopback for the "marketplace from a git URL" route: `git http-backend`
 * behind a tiny HTTP server (smart HTTP; Claude Code clones shallow, which the dumb protocol
 * cannot serve, and it takes no file:// or git:// URL as a marketplace source).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type GitServer = { url: string; close: () => Promise<void> };

/** Serves every bare repository under `root` as `<url>/<name>.git`. */
export async function serveGit(root: string): Promise<GitServer> {
  const server = createServer((req, res) => runBackend(root, req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function runBackend(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const cgi = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      REMOTE_ADDR: '127.0.0.1',
    },
  });
  req.pipe(cgi.stdin);
  let head = Buffer.alloc(0);
  let body = false;
  cgi.stdout.on('data', (chunk: Buffer) => {
    if (body) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    body = true;
    // CGI headers: "Status: 404 Not Found" sets the status, the rest pass through.
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const [name, value] = [line.slice(0, colon), line.slice(colon + 1).trim()];
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.writeHead(status);
    res.write(head.subarray(end + 4));
  });
  cgi.on('close', () => res.end());
  cgi.on('error', () => res.writeHead(500).end());
}
