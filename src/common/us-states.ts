/** Where the shop ships: the 50 states and the District of Columbia, by USPS code. */
export const US_STATES = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
] as const satisfies readonly (readonly [string, string])[];

export type UsStateCode = (typeof US_STATES)[number][0];

const CODES = new Set<string>(US_STATES.map(([code]) => code));

/** A state code the shop ships to ('ca' counts as 'CA'). */
export function usStateCode(value: string): UsStateCode | undefined {
  const code = value.trim().toUpperCase();
  return CODES.has(code) ? (code as UsStateCode) : undefined;
}

/** The countries the shop ships to, by ISO code (the United States only). */
export const SHIPPING_COUNTRIES = [['US', 'United States']] as const;
export type ShippingCountryCode = (typeof SHIPPING_COUNTRIES)[number][0];
/** What a new checkout's Country starts as. */
export const DEFAULT_SHIPPING_COUNTRY: ShippingCountryCode = 'US';

const US_NAMES = new Set(['us', 'usa', 'united states', 'united states of america']);

/** The code of a country we ship to, written as its code or name ("US", "U.S.A.", "United States"). */
export function shippingCountryCode(value: string): ShippingCountryCode | undefined {
  return US_NAMES.has(value.trim().toLowerCase().replace(/\./g, '')) ? 'US' : undefined;
}
