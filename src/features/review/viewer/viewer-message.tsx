import { Component, type ErrorInfo, type ReactNode } from 'react';

const VALUES_STAY =
  'The extracted values are still listed beside the document: you can check and correct them as usual.';

interface MessageProps {
  title: string;
  /** What the operator can do about it. */
  children: ReactNode;
  detail?: string | undefined;
}

/** Why the document cannot be shown, and what to do; the values stay usable whatever happens here. */
export function ViewerMessage({ title, children, detail }: MessageProps) {
  return (
    <div
      role="alert"
      className="m-4 max-w-prose rounded-md border border-amber-400 bg-amber-50 p-4 text-sm text-slate-900"
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1">{children}</p>
      <p className="mt-1">{VALUES_STAY}</p>
      {detail && (
        <details className="mt-2 text-xs text-slate-700">
          <summary className="cursor-pointer">Technical detail</summary>
          <code className="break-all">{detail}</code>
        </details>
      )}
    </div>
  );
}

/** A message for a document pdf.js or the picture decoder could not open. */
export function OpenErrorMessage({ error, kind }: { error: Error; kind: 'PDF' | 'image' | 'TIFF' }) {
  if (error.name === 'PasswordException') {
    return (
      <ViewerMessage title="This PDF is protected by a password" detail={error.message}>
        The viewer cannot open protected PDFs. Save a copy without the password (for example with your PDF
        reader's “Print to PDF”) and upload that copy to see the values on the page.
      </ViewerMessage>
    );
  }
  return (
    <ViewerMessage title={`This ${kind} could not be displayed`} detail={`${error.name}: ${error.message}`}>
      The file may be damaged, cut short, or use a feature this browser cannot draw. Check that the original
      opens on your computer; if it does, upload it again (or a copy saved as PDF) to see the values on the
      page.
    </ViewerMessage>
  );
}

/** The viewer's own last line of defence: a bug here must not take the values down with it. */
export class ViewerErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('The document viewer failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return (
        <ViewerMessage title="The document viewer stopped" detail={this.state.error.message}>
          Reload the page to try again. If it happens again with this document, report it with the document
          attached.
        </ViewerMessage>
      );
    }
    return this.props.children;
  }
}
