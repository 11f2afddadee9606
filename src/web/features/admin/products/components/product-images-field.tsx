import { cn } from '#web/lib/cn';
import { ChevronLeft, ChevronRight, ImagePlus, X } from 'lucide-react';
import { useId, useRef, type ChangeEvent } from 'react';
import { MAX_PRODUCT_IMAGES, PRODUCT_MESSAGES, type ProductImage } from '#common/schemas/product';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/api-client';
import { checkImageFile, IMAGE_ACCEPT, UPLOAD_MESSAGES, useUploadImage } from '../api/upload-image';

export interface ProductImagesFieldProps {
  images: ProductImage[];
  onChange: (images: ProductImage[]) => void;
  /** Reports a problem (shown in the form's banner); null clears it. */
  onError: (message: string | null) => void;
  isInvalid?: boolean;
  disabled?: boolean;
}

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/**
 * Up to four product photos, uploaded one at a time through POST /api/uploads. The first is the
 * main image; the arrows reorder, the cross removes. Type and size are checked before uploading.
 */
export function ProductImagesField({
  images,
  onChange,
  onError,
  isInvalid,
  disabled,
}: ProductImagesFieldProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const upload = useUploadImage();
  const labelId = useId();
  const isFull = images.length >= MAX_PRODUCT_IMAGES;

  const onPick = () => {
    if (isFull) {
      onError(PRODUCT_MESSAGES.maxImages);
      return;
    }
    inputRef.current?.click();
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (images.length >= MAX_PRODUCT_IMAGES) {
      onError(PRODUCT_MESSAGES.maxImages);
      return;
    }
    const problem = checkImageFile(file);
    if (problem) {
      onError(problem);
      return;
    }
    onError(null);
    upload.mutate(file, {
      onSuccess: (stored) =>
        onChange([...images, { path: stored.path, url: stored.url, srcset: stored.srcset }]),
      onError: (error) => onError(errorMessage(error, UPLOAD_MESSAGES.failed)),
    });
  };

  return (
    <fieldset aria-labelledby={labelId}>
      <div className="flex items-baseline justify-between gap-3">
        <p id={labelId} className="text-sm font-medium text-stone-800">
          Images{' '}
          <span aria-hidden="true" className="text-rose-600">
            *
          </span>
        </p>
        <p className="text-xs font-medium text-stone-500 tabular-nums" aria-live="polite">
          <span className="sr-only">Images: </span>
          {images.length}/{MAX_PRODUCT_IMAGES}
        </p>
      </div>
      <p className="mt-1 text-xs text-stone-500">
        JPEG, PNG, GIF or WebP, under 5MB each. The first image is the main one.
      </p>

      <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {images.map((image, index) => (
          <li
            key={image.path}
            className="group relative overflow-hidden rounded-xl bg-stone-100 ring-1 ring-stone-200"
          >
            <img
              src={image.url}
              srcSet={image.srcset || undefined}
              sizes="(min-width: 640px) 12rem, 45vw"
              alt={`Gallery slot ${index + 1}${index === 0 ? ' (main)' : ''}`}
              className="aspect-square w-full object-cover"
            />
            {index === 0 ? (
              <span className="absolute top-2 left-2 rounded-full bg-stone-950/80 px-2 py-0.5 text-[11px] font-medium text-white">
                Main
              </span>
            ) : null}
            <button
              type="button"
              onClick={() => onChange(images.filter((_, i) => i !== index))}
              disabled={disabled}
              aria-label={`Remove image ${index + 1}`}
              className="absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-full bg-white/95 text-stone-700 shadow-sm ring-1 ring-stone-200 transition-colors hover:bg-white hover:text-red-600"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
            <div className="absolute inset-x-2 bottom-2 flex justify-between">
              <button
                type="button"
                onClick={() => onChange(move(images, index, index - 1))}
                disabled={disabled || index === 0}
                aria-label={`Move image ${index + 1} left`}
                className="inline-flex size-8 items-center justify-center rounded-full bg-white/95 text-stone-700 shadow-sm ring-1 ring-stone-200 transition-colors hover:bg-white disabled:invisible"
              >
                <ChevronLeft className="size-4" aria-hidden="true" />
              </button>
              <button
                type="button"
                onClick={() => onChange(move(images, index, index + 1))}
                disabled={disabled || index === images.length - 1}
                aria-label={`Move image ${index + 1} right`}
                className="inline-flex size-8 items-center justify-center rounded-full bg-white/95 text-stone-700 shadow-sm ring-1 ring-stone-200 transition-colors hover:bg-white disabled:invisible"
              >
                <ChevronRight className="size-4" aria-hidden="true" />
              </button>
            </div>
          </li>
        ))}

        {upload.isPending ? (
          <li className="flex aspect-square flex-col items-center justify-center gap-2 rounded-xl bg-stone-50 text-rose-600 ring-1 ring-stone-200">
            <Spinner label="Uploading image" />
            <span className="text-xs font-medium text-stone-500">Uploading...</span>
          </li>
        ) : (
          <li>
            <button
              type="button"
              onClick={onPick}
              disabled={disabled}
              className={cn(
                'flex aspect-square w-full flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed text-sm font-medium transition-colors',
                isInvalid && images.length === 0
                  ? 'border-red-300 bg-red-50/40 text-red-700'
                  : 'border-stone-300 bg-stone-50/60 text-stone-600 hover:border-rose-400 hover:bg-rose-50/40 hover:text-rose-700',
                isFull && 'opacity-60',
              )}
            >
              <ImagePlus className="size-6" strokeWidth={1.5} aria-hidden="true" />
              Upload image
            </button>
          </li>
        )}
      </ul>
      <input
        ref={inputRef}
        type="file"
        accept={IMAGE_ACCEPT}
        onChange={onFile}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="product-image-input"
      />
    </fieldset>
  );
}
