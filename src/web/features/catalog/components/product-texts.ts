/** The spec's texts of the product list (spec §2, §8), shown by the grid and by Show more. */
export const PRODUCTS_ERROR_TEXT = 'Failed to load products. Please try again later.';
export const PRODUCTS_EMPTY_TEXT = 'No products found matching your criteria.';
