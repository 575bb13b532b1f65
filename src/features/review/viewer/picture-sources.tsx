import { useEffect, useMemo, useState } from 'react';
import { openTiff, type TiffDocument } from './decode-tiff';
import type { Size } from '@extraction-review/review-domain/viewer/geometry';
import type { PageSource, SourceChildren } from './page-source';
import { OpenErrorMessage } from './viewer-message';

interface Props {
  file: Blob;
  children: SourceChildren;
}

type Opened<T> = { file: Blob; value: T } | { file: Blob; error: Error };

const asError = (e: unknown) => (e instanceof Error ? e : new Error(String(e)));

/** A JPEG, PNG or WebP picture: one page, drawn by the browser as an `<img>` (EXIF orientation applied). */
export function ImageSource({ file, children }: Props) {
  const [opened, setOpened] = useState<Opened<{ url: string; size: Size }> | null>(null);
  useEffect(() => {
    let live = true;
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.src = url;
    image
      .decode()
      .then(() => {
        const size = { width: image.naturalWidth, height: image.naturalHeight };
        if (live) setOpened({ file, value: { url, size } });
      })
      .catch((e: unknown) => live && setOpened({ file, error: asError(e) }));
    return () => {
      live = false;
      URL.revokeObjectURL(url);
    };
  }, [file]);
  const current = opened?.file === file ? opened : null;
  const value = current && 'value' in current ? current.value : null;
  const source = useMemo<PageSource | null>(
    () => value && { kind: 'image', sizes: [value.size], url: value.url },
    [value],
  );
  if (current && 'error' in current) return <OpenErrorMessage error={current.error} kind="image" />;
  return children(source);
}

/** A TIFF: every image of the file is a page, decoded here because browsers cannot show TIFF. */
export function TiffSource({ file, children }: Props) {
  const [opened, setOpened] = useState<Opened<TiffDocument> | null>(null);
  useEffect(() => {
    let live = true;
    let tiff: TiffDocument | null = null;
    openTiff(file)
      .then((t) => {
        tiff = t;
        if (live) setOpened({ file, value: t });
        else t.close();
      })
      .catch((e: unknown) => live && setOpened({ file, error: asError(e) }));
    return () => {
      live = false;
      tiff?.close();
    };
  }, [file]);
  const current = opened?.file === file ? opened : null;
  const tiff = current && 'value' in current ? current.value : null;
  const source = useMemo<PageSource | null>(() => tiff && { kind: 'tiff', sizes: tiff.sizes, tiff }, [tiff]);
  if (current && 'error' in current) return <OpenErrorMessage error={current.error} kind="TIFF" />;
  return children(source);
}
