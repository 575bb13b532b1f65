import { useLocation } from 'wouter';
import { UploadView } from '../features/upload/upload-view';
import { saveDocument } from '../lib/document-store';

export function UploadRoute() {
  const [, navigate] = useLocation();
  return (
    <UploadView
      onEnqueued={async ({ job }, { file, modelId }) => {
        // Kept before navigating: the review needs the file, and the API never returns it.
        await saveDocument({
          jobId: job.id,
          modelId,
          filename: file.name,
          file,
          createdAt: new Date().toISOString(),
        });
        navigate(`/jobs/${encodeURIComponent(job.id)}`);
      }}
    />
  );
}
