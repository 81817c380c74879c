/**
 * The browser's own notification (issue 23 §2 'when the tab is hidden, with permission'). The
 * permission is asked only when the user switches it on in the pop-up settings (a click), never on
 * load: browsers refuse or penalise prompts nobody asked for.
 */
export function browserNotificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

export function browserNotificationsGranted(): boolean {
  return browserNotificationsSupported() && Notification.permission === 'granted';
}

/** Asks for the permission (from a click); whether it is granted. */
export async function askBrowserNotificationPermission(): Promise<boolean> {
  if (!browserNotificationsSupported()) return false;
  if (Notification.permission === 'granted') return true;
  if (Notification.permission === 'denied') return false;
  return (await Notification.requestPermission()) === 'granted';
}

/** Shows one while the tab is hidden; a click brings the tab forward and runs `onClick`. */
export function showBrowserNotification(title: string, body: string, tag: string, onClick: () => void): void {
  if (!browserNotificationsGranted() || !document.hidden) return;
  const shown = new Notification(title, { body, tag });
  shown.onclick = () => {
    window.focus();
    onClick();
    shown.close();
  };
}
