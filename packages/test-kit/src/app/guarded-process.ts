/**
 * For process-guards.test.ts: a process with the guards installed that, told over IPC, lets a
 * rejection go unhandled, throws a connection's error out of a callback, or throws a programming
 * error out of a callback; it answers 'alive' to show it is still there.
 */
import { installProcessGuards } from '@extraction-review/app-server/process-guards';

installProcessGuards();

const connectionError = (): Error =>
  Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });

process.on('message', (message) => {
  if (message === 'reject') void Promise.reject(new Error('nobody awaited this'));
  else if (message === 'connection')
    setTimeout(() => {
      throw connectionError();
    });
  else if (message === 'bug')
    setTimeout(() => {
      throw new TypeError('undefined is not a function');
    });
  // After the others' handlers have run: a timer is queued behind the throws above.
  setTimeout(() => process.send?.('alive'), 20);
});
process.send?.('ready');
// Kept alive by the IPC channel; ends when the test disconnects.
process.on('disconnect', () => process.exit(0));
