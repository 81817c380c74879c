// The people screens share one chunk (issue 21 §9): few users open them, and one lazy import keeps
// the first bundle's preload table small.
export { ManageCentersPage } from './ManageCentersPage';
export { ManageUsersPage } from './ManageUsersPage';
export { SetPasswordPage } from './SetPasswordPage';
