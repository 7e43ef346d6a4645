/**
 * Spec, section 5: image fields resize uploads to the configured width, height, format and
 * quality. The picture keeps its proportions and fits inside the box; it is never enlarged.
 */
export interface ImageResizeOptions {
  width: number;
  height: number;
  /** MIME type of the result, e.g. 'image/png' or 'image/jpeg'. */
  format: string;
  /** 0..1, for lossy formats. */
  quality: number;
}

export function fitWithin(
  source: { width: number; height: number },
  box: { width: number; height: number },
): { width: number; height: number } {
  if (source.width <= 0 || source.height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, box.width / source.width, box.height / source.height);
  return {
    width: Math.max(1, Math.round(source.width * scale)),
    height: Math.max(1, Math.round(source.height * scale)),
  };
}

/** Browser only: decodes, scales on a canvas and encodes again. */
export async function resizeImage(file: Blob, options: ImageResizeOptions): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const size = fitWithin(bitmap, options);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('canvas 2d context unavailable');
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('image encoding failed'))),
        options.format,
        options.quality,
      ),
    );
  } finally {
    bitmap.close();
  }
}
