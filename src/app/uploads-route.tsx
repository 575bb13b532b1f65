import { UploadList } from '../features/upload/upload-list';
import { UploadsPage } from '../features/uploads/uploads-page';

/** The team's uploads, with the ones this browser is still sending above them. */
export function UploadsRoute() {
  return (
    <main className="mx-auto flex w-full max-w-screen-xl flex-col gap-6 p-6">
      <UploadList />
      <UploadsPage />
    </main>
  );
}
