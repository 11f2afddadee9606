/** The spec's mobile detection (§9): by user agent, phones and tablets alike. */
const MOBILE_AGENT =
  /Android|iPhone|iPad|iPod|Mobile|Tablet|Silk|Kindle|BlackBerry|BB10|Opera Mini|IEMobile|webOS/i;

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_AGENT.test(userAgent);
}
