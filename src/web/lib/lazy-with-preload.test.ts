import { describe, expect, it, vi } from 'vitest';
import type { ComponentType } from 'react';
import { lazyWithPreload, loadOnce } from './lazy-with-preload';

const Component: ComponentType<object> = () => null;

describe('loadOnce', () => {
  it('loads the module once, however often it is asked, and has the component once it is in', async () => {
    const load = vi.fn(() => Promise.resolve(Component));
    const { preload, loaded } = loadOnce(load);
    expect(loaded()).toBeUndefined();
    const [a, b] = await Promise.all([preload(), preload()]);
    expect(a).toBe(Component);
    expect(b).toBe(Component);
    await preload();
    expect(load).toHaveBeenCalledTimes(1);
    expect(loaded()).toBe(Component);
  });

  it('tries again on the next preload after a load failed (the network dropped), not for ever failing', async () => {
    const load = vi
      .fn<() => Promise<ComponentType<object>>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce(Component);
    const { preload, loaded } = loadOnce(load);
    await expect(preload()).rejects.toThrow('Failed to fetch');
    expect(loaded()).toBeUndefined();
    await expect(preload()).resolves.toBe(Component);
    expect(load).toHaveBeenCalledTimes(2);
    expect(loaded()).toBe(Component);
  });
});

describe('lazyWithPreload().whenLoaded', () => {
  it('shows the component only once its module is in, so that it mounts without suspending', async () => {
    let resolve!: (component: ComponentType<object>) => void;
    const Lazy = lazyWithPreload(() => new Promise<ComponentType<object>>((r) => (resolve = r)));
    const show = vi.fn();
    Lazy.whenLoaded(show);
    await Promise.resolve();
    expect(show).not.toHaveBeenCalled();
    resolve(Component);
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(1));
  });

  it('still shows it after a failed load (Suspense then loads again or reaches the error boundary)', async () => {
    const Lazy = lazyWithPreload(() => Promise.reject(new TypeError('Failed to fetch')));
    const show = vi.fn();
    Lazy.whenLoaded(show);
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(1));
  });
});
