/**
 * Imported first by a bench that runs the shop in its own process (bench/storefront-scale.ts):
 * NODE_ENV=production as `npm start` sets it, before any library reads it. React picks its build
 * when it is first loaded (by react-router, with the app): without this the pages the bench renders
 * on the server were React's development build, two to three times slower than production's.
 */
process.env.NODE_ENV = 'production';
