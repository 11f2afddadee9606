import { useMutation } from '@tanstack/react-query';
import { apiClient } from '#web/lib/api-client';

/** What POST /api/uploads answers (201): the stored key of the main WebP variant and its URLs. */
export interface UploadedImage {
  path: string;
  url: string;
  srcset: string;
  widths: number[];
}

export const ACCEPTED_IMAGE_TYPES = [
  'image/jpeg',
  'image/jpg',
  'image/png',
  'image/gif',
  'image/webp',
] as const;
export const ACCEPTED_IMAGE_EXTENSIONS = ['.jpeg', '.jpg', '.png', '.gif', '.webp'] as const;
/** The `accept` attribute of the file input. */
export const IMAGE_ACCEPT = [...ACCEPTED_IMAGE_TYPES, ...ACCEPTED_IMAGE_EXTENSIONS].join(',');
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const UPLOAD_MESSAGES = {
  notImage: 'Please upload an image file',
  tooLarge: 'File size must be less than 5MB',
  failed: 'Failed to upload image',
} as const;

/** The browser-side checks of the spec (the server checks the bytes again): null when fine. */
export function checkImageFile(file: File): string | null {
  const name = file.name.toLowerCase();
  const hasImageExtension = ACCEPTED_IMAGE_EXTENSIONS.some((ext) => name.endsWith(ext));
  const hasImageType = (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type);
  if (!file.type.startsWith('image/') || !(hasImageType || hasImageExtension))
    return UPLOAD_MESSAGES.notImage;
  if (file.size >= MAX_IMAGE_BYTES) return UPLOAD_MESSAGES.tooLarge;
  return null;
}

/** POST /api/uploads: the image's bytes as the body, with the image's own content type (admin only). */
export function uploadImage(file: File): Promise<UploadedImage> {
  return apiClient.post<UploadedImage>('/api/uploads', file);
}

export function useUploadImage() {
  return useMutation({ mutationFn: uploadImage });
}
