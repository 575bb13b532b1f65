import { useLocation } from 'wouter';
import { UploadView } from '../features/upload/upload-view';

export function UploadRoute() {
  const [, navigate] = useLocation();
  return <UploadView onSingleEnqueued={navigate} />;
}
