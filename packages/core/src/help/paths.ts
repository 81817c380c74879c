/**
 * The FAQ page (ours: the spec names the screen, not its path). Apart from the videos' list: the
 * shell's menu and routes need the path at first paint, the list only the FAQ screen.
 */
export const FAQ_PATH = '/faq';
