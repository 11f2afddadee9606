import { useEffect, useState } from 'react';

/**
 * A Solana Pay URL as a QR code (an SVG data URL; highest error correction, 300 px), drawn once the
 * `qrcode` module has loaded (it is loaded on first use, never with the page). null until then, and
 * while there is no URL yet.
 */
export function useQrCode(url: string | null): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    // Nothing to draw yet (the link is still being fetched): qrcode refuses an empty text.
    if (!url) return;
    let live = true;
    void import('qrcode').then(async (qr) => {
      const svg = await qr.toString(url, { type: 'svg', errorCorrectionLevel: 'H', width: 300, margin: 1 });
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [url]);
  return src;
}
