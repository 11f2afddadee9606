import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import S3rver from 's3rver';
import { SMTPServer } from 'smtp-server';
import { ROOT_DIR, findFreePort } from '../helpers/browser';

/**
 * The outside services of a production shop, run on this machine for the deploy test: a real SMTP
 * server, an S3-compatible server (s3rver: files on disk, SigV4 signatures checked) and Caddy (the
 * reverse proxy of deploy/Caddyfile, with a private CA instead of Let's Encrypt).
 */

export interface MailServer {
  port: number;
  /** Every mail received, parsed, in order of arrival. */
  mails: ParsedMail[];
  /** SMTP connections opened to it so far. */
  connections(): number;
  /** The first mail to `to` whose subject matches; waits for it. */
  waitFor(to: string, subject: RegExp, ms?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startMailServer(): Promise<MailServer> {
  const mails: ParsedMail[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback; a real provider speaks TLS (smtps:// or STARTTLS).
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  const port = await findFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const recipients = (mail: ParsedMail) =>
    [mail.to].flat().flatMap((a) => (a ? a.value.map((v) => v.address?.toLowerCase()) : []));
  return {
    port,
    mails,
    connections: () => connections,
    async waitFor(to, subject, ms = 30_000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = mails.find(
          (m) => recipients(m).includes(to.toLowerCase()) && subject.test(m.subject ?? ''),
        );
        if (found) return found;
        if (Date.now() > until) throw new Error(`no mail to ${to} matching ${subject} arrived over SMTP`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface S3Server {
  /** https://127.0.0.1:<port> */
  endpoint: string;
  /** Its self-signed certificate (PEM): the shop trusts it through NODE_EXTRA_CA_CERTS. */
  ca: string;
  caFile: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

export async function startS3Server(directory: string): Promise<S3Server> {
  const port = await findFreePort();
  const bucket = 'shop-photos';
  // Over https, as a real bucket is (an https page may not show photos from plain http).
  mkdirSync(directory, { recursive: true });
  const keyFile = path.join(directory, 's3.key');
  const caFile = path.join(directory, 's3.crt');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=s3.test',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      caFile,
    ],
    { encoding: 'utf8' },
  );
  if (made.status !== 0)
    throw new Error(`openssl could not make the S3 server's certificate: ${made.stderr}`);
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory: path.join(directory, 'data'),
    silent: true,
    key: readFileSync(keyFile),
    cert: readFileSync(caFile),
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  await server.run();
  return {
    endpoint: `https://127.0.0.1:${port}`,
    ca: readFileSync(caFile, 'utf8'),
    caFile,
    bucket,
    // s3rver's own credentials: it checks every request's SigV4 signature against them.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    close: () => server.close(),
  };
}

export interface Caddy {
  /** https://localhost:<port>: the shop's PUBLIC_URL. */
  url: string;
  /** The private CA's root certificate (PEM), the one thing the test's clients trust. */
  rootCa: string;
  logs(): string;
  stop(): Promise<void>;
}

export const caddyPath = ['/usr/bin/caddy', '/usr/local/bin/caddy'].find((p) => existsSync(p));

/** Caddy with deploy/Caddyfile in front of `upstreams`, its CA and state kept under `dir`. */
export async function startCaddy(dir: string, upstreams: string[]): Promise<Caddy> {
  if (!caddyPath) throw new Error('caddy is not installed (apt-get install caddy)');
  const httpsPort = await findFreePort();
  const httpPort = await findFreePort();
  const storage = path.join(dir, 'storage');
  mkdirSync(storage, { recursive: true });
  const config = path.join(ROOT_DIR, 'deploy', 'Caddyfile');
  const valid = spawnSync(caddyPath, ['validate', '--config', config, '--adapter', 'caddyfile'], {
    env: caddyEnv(),
    encoding: 'utf8',
  });
  if (valid.status !== 0) throw new Error(`deploy/Caddyfile does not validate:\n${valid.stderr}`);

  function caddyEnv(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_CONFIG_HOME: path.join(dir, 'config'),
      XDG_DATA_HOME: path.join(dir, 'data'),
      SHOP_SITE: 'localhost',
      SHOP_UPSTREAMS: upstreams.join(' '),
      ACME_EMAIL: 'ops@example.com',
      // What a test needs that a real server does not: its own CA (no Let's Encrypt for localhost),
      // ports of its own, no admin endpoint, and no attempt to install the CA in the system store.
      CADDY_GLOBAL: [
        'local_certs',
        'skip_install_trust',
        'admin off',
        `http_port ${httpPort}`,
        `https_port ${httpsPort}`,
        `storage file_system ${storage}`,
      ].join('\n\t'),
    };
  }

  const child: ChildProcess = spawn(caddyPath, ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: caddyEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString('utf8')).slice(-200_000)));
  child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString('utf8')).slice(-200_000)));
  const rootFile = path.join(storage, 'pki', 'authorities', 'local', 'root.crt');
  const until = Date.now() + 30_000;
  while (!existsSync(rootFile)) {
    if (child.exitCode !== null) throw new Error(`caddy exited:\n${output}`);
    if (Date.now() > until) throw new Error(`caddy made no CA in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `https://localhost:${httpsPort}`,
    rootCa: readFileSync(rootFile, 'utf8'),
    logs: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
