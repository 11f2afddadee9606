import { useEffect, useState } from 'react';

/** A success message that clears itself after a few seconds. */
export function useFlash(timeoutMs = 5000): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), timeoutMs);
    return () => clearTimeout(timer);
  }, [message, timeoutMs]);
  return [message, setMessage];
}
