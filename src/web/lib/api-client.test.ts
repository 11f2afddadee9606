import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiClient, errorMessage } from './api-client';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api-client', () => {
  it('sends JSON with same-origin credentials and returns the parsed body', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, { user: null }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(apiClient.post('/api/auth/sign-in/email', { email: 'a@b.co' })).resolves.toEqual({
      user: null,
    });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/auth/sign-in/email');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"email":"a@b.co"}');
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
  });

  it('declares a content type on every write: JSON when bodiless, the file type for a Blob', async () => {
    const fetchMock = vi.fn().mockImplementation(() => Promise.resolve(jsonResponse(200, { ok: true })));
    vi.stubGlobal('fetch', fetchMock);
    await apiClient.post('/api/auth/sign-out');
    await apiClient.delete('/api/wallet');
    const image = new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' });
    await apiClient.post('/api/uploads', image);
    await apiClient.get('/api/products');
    // What fetch sends: the Request it builds from the call (a Blob's own type becomes the content type).
    const sent = (fetchMock.mock.calls as Array<[string, RequestInit]>).map(([url, init]) => [
      init.method,
      url,
      new Request(new URL(url, 'http://shop.test'), init).headers.get('content-type'),
    ]);
    expect(sent).toEqual([
      ['POST', '/api/auth/sign-out', 'application/json'],
      ['DELETE', '/api/wallet', 'application/json'],
      ['POST', '/api/uploads', 'image/png'],
      ['GET', '/api/products', null],
    ]);
    expect((fetchMock.mock.calls[2] as [string, RequestInit])[1].body).toBe(image);
  });

  it('adds query parameters, skipping empty ones', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(
      apiClient.get('/api/x', { query: { a: 1, b: '', c: undefined, d: 'x y' } }),
    ).resolves.toBeUndefined();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/x?a=1&d=x+y');
  });

  it('turns an error body into a typed ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        jsonResponse(400, {
          error: {
            code: 'VALIDATION_FAILED',
            message: 'Check the form',
            fields: { email: 'Please enter a valid email address' },
          },
        }),
      ),
    );
    const error = await apiClient.post('/api/x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Check the form',
      status: 400,
      fields: { email: 'Please enter a valid email address' },
    });
    expect(errorMessage(error)).toBe('Check the form');
  });

  it('maps a body without our error shape by status, and a failed fetch to NETWORK_ERROR', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>', { status: 502 })));
    await expect(apiClient.get('/api/x')).rejects.toMatchObject({ code: 'INTERNAL', status: 502 });

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('nope', { status: 401 })));
    await expect(apiClient.get('/api/x')).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiClient.get('/api/x')).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it("shows the server's message, else the caller's fallback, else the client's own wording", async () => {
    const fallback = 'Failed to process airdrop';
    const server = new ApiError('NOT_CONFIGURED', 'No airdrop engine is configured', 503);
    expect(errorMessage(server, fallback)).toBe('No airdrop engine is configured');

    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>', { status: 502 })));
    const noBody = await apiClient.get('/api/x').catch((e: unknown) => e);
    expect(errorMessage(noBody, fallback)).toBe(fallback);
    expect(errorMessage(noBody)).toBe('Request failed (502)');

    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const offline = await apiClient.get('/api/x').catch((e: unknown) => e);
    expect(errorMessage(offline, fallback)).toBe(fallback);
    expect(errorMessage(offline)).toMatch(/^Could not reach the shop/);

    expect(errorMessage(new ApiError('INTERNAL', ' ', 500), fallback)).toBe(fallback);
    expect(errorMessage(new TypeError('boom'), fallback)).toBe(fallback);
    expect(errorMessage(new TypeError('boom'))).toBe('boom');
  });
});
