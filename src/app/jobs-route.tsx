import { JobList } from '../features/jobs/job-list';
import { UploadList } from '../features/upload/upload-list';

/** The operator's jobs, with the uploads of this session still going above them. */
export function JobsRoute() {
  return (
    <main className="mx-auto flex w-full max-w-4xl flex-col gap-6 p-6">
      <div>
        <h1 className="text-2xl font-semibold">Jobs</h1>
        <p className="mt-1 text-sm text-slate-600">
          What you sent from this browser, kept here across reloads. Open a processed job to review it.
        </p>
      </div>
      <UploadList />
      <JobList />
    </main>
  );
}
