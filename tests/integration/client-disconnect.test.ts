import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShopServer, type ShopServer } from '../helpers/browser';
import { seededRandom } from '../helpers/seeded-random';

/**
 * A visitor who leaves while a page is still being sent must cost the server nothing but that
 * response. The built server (`node dist/server/main.js`) streams its server-rendered pages; it
 * once turned React's Node stream into a web stream whose next chunk after a cancel threw outside
 * any handler, and the whole server exited (CI lost a browser suite's server to a closed tab).
 */
describe('a client that disconnects mid-response', () => {
  let server: ShopServer;
  beforeAll(async () => {
    server = await startShopServer({ seedDemo: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  function getAndHangUp(path: string, afterMs: number): Promise<void> {
    const { port } = server;
    return new Promise((resolve) => {
      const req = http.get(
        { host: '127.0.0.1', port, path, headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } },
        (res) => {
          res.resume();
          res.on('close', resolve);
        },
      );
      req.on('error', () => resolve());
      setTimeout(() => {
        req.destroy();
        resolve();
      }, afterMs);
    });
  }

  it('keeps serving after hundreds of pages and API answers cut off at random points', async () => {
    const random = seededRandom(11);
    const paths = ['/', '/faq', '/terms', '/about', '/how-to-buy', '/api/products', '/api/events'];
    for (let round = 0; round < 60; round++) {
      for (const path of paths) await getAndHangUp(path, Math.floor(random() * 40));
    }
    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(health.status).toBe(200);
    const page = await fetch(`${server.baseUrl}/faq`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('</html>');
    expect(server.logs()).not.toMatch(/ERR_INVALID_STATE|Controller is already closed/);
  });
});
