import { useEffect, useState } from 'react';
import type { DocumentKind } from './document-kind';
import { documentKind, knownKind } from './open-ahead';
import type { SourceChildren } from './page-source';
import { PdfSource } from './pdf-source';
import { ImageSource, TiffSource } from './picture-sources';
import { ViewerMessage } from './viewer-message';

interface Props {
  file: Blob;
  mimeType?: string | undefined;
  children: SourceChildren;
}

/**
 * Tells what the file is (its bytes first) and opens it with the matching source; told already when
 * the review's route opened the file ahead (open-ahead.ts).
 */
export function DocumentSource({ file, mimeType, children }: Props) {
  const [detected, setDetected] = useState<{ file: Blob; kind: DocumentKind } | null>(() => {
    const kind = knownKind(file, mimeType);
    return kind ? { file, kind } : null;
  });
  useEffect(() => {
    let live = true;
    documentKind(file, mimeType)
      .then(
        (kind) =>
          live && setDetected((now) => (now?.file === file && now.kind === kind ? now : { file, kind })),
      )
      .catch(
        () =>
          live &&
          setDetected({ file, kind: { kind: 'unsupported', description: 'a file that cannot be read' } }),
      );
    return () => {
      live = false;
    };
  }, [file, mimeType]);

  const kind = detected?.file === file ? detected.kind : null;
  switch (kind?.kind) {
    case undefined:
      return children(null);
    case 'pdf':
      return <PdfSource file={file}>{children}</PdfSource>;
    case 'image':
      return <ImageSource file={file}>{children}</ImageSource>;
    case 'tiff':
      return <TiffSource file={file}>{children}</TiffSource>;
    case 'unsupported':
      return (
        <ViewerMessage title="This document cannot be displayed here">
          It is {kind.description}, which this viewer cannot draw. To see the values on the page, convert it
          to PDF, JPEG, PNG, WebP or TIFF and extract it again.
        </ViewerMessage>
      );
  }
}
