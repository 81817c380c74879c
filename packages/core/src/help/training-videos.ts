import { z } from 'zod';

/**
 * The full-screen FAQ with 12 training videos (spec-core §2 "tutorials and a full-screen FAQ with 12
 * training videos"; the drawer's 'Support Videos'). The spec gives neither the titles nor the
 * questions: these are ours, one per task a new user asks about. Each video is a short recording of
 * the real app doing what its answer says (scripts/record-training-videos.ts), so it never goes stale;
 * the server serves the recordings it has (`GET /api/training-videos`).
 */
export interface TTrainingVideo {
  /** The file's name without `.webm`, and the FAQ entry's anchor. */
  id: string;
  title: string;
  question: string;
  answer: string;
}

export const TRAINING_VIDEOS = [
  {
    id: 'sign-in',
    title: 'Signing in and finding your way',
    question: 'How do I sign in and find my screens?',
    answer:
      'Sign in with your e-mail or mobile number and password, or ask for a one-time code on your mobile. Your screens are in the menu on the left; the account menu at the top right holds your password and Logout.',
  },
  {
    id: 'study-list',
    title: 'The study list',
    question: 'Where are my studies?',
    answer:
      'The study list shows the studies you work on, newest first, in tabs by status. It refreshes by itself; the colours of a row say whether it is urgent, locked or signed off.',
  },
  {
    id: 'filters',
    title: 'Filtering and sorting the list',
    question: 'How do I find one study quickly?',
    answer:
      'Type in the filter box under a column heading (patient name, id, modality…) or pick dates; click a heading to sort by it. The filters stay while you move between tabs.',
  },
  {
    id: 'viewer',
    title: 'Opening a study in the viewer',
    question: 'How do I look at the images?',
    answer:
      "Press the row's viewer button. The first image shows at once; the series are on the left, and the keys 1–6 switch window presets.",
  },
  {
    id: 'viewer-tools',
    title: 'Viewer tools and measurements',
    question: 'How do I zoom, pan and measure?',
    answer:
      'Choose a tool in the viewer toolbar or press its key: m pan, z zoom, l length, e ellipse, a angle, y arrow. Home and End go to the first and last series.',
  },
  {
    id: 'report',
    title: 'Writing a report',
    question: 'How do I write a report?',
    answer:
      "Press the row's report button. Write in the editor, or start from a template; the report is saved as you type and the images stay beside it.",
  },
  {
    id: 'sign-off',
    title: 'Signing off a report',
    question: 'When does the center receive my report?',
    answer:
      'When you sign it off. A signed-off report can be printed and downloaded as PDF or Word; a change after sign-off is an addendum.',
  },
  {
    id: 'templates',
    title: 'Report templates',
    question: 'Can I keep my own report templates?',
    answer:
      'Yes: Manage template in the menu. A template is chosen by body part and modality and fills the editor in one click.',
  },
  {
    id: 'share',
    title: 'Sharing a report',
    question: 'How does the patient or referring doctor get the report?',
    answer:
      "From the row's actions, Share sends a link by SMS, WhatsApp or e-mail; the link opens the report and the images without an account.",
  },
  {
    id: 'external-viewers',
    title: 'Weasis and RadiAnt',
    question: 'Can I open a study in Weasis or RadiAnt?',
    answer:
      'Yes, when your group allows it: the viewer toolbar has Open in Weasis and, with a download folder set in the Study Table setting, Open in RadiAnt.',
  },
  {
    id: 'router',
    title: 'The Radflow router at your center',
    question: 'How do images reach Radflow from our machines?',
    answer:
      'A center installs the Radflow router (Download router in the menu). Modalities send to it over DICOM; it uploads to Radflow, resumes after a broken link and forwards to your PACS.',
  },
  {
    id: 'settings',
    title: 'Your preferences',
    question: 'Where do I change my settings?',
    answer:
      'Manage preference in the menu (or the gear at the top): report text, signature, viewer, study table and editor settings. Each saves on its own.',
  },
] as const satisfies readonly TTrainingVideo[];

export type TTrainingVideoId = (typeof TRAINING_VIDEOS)[number]['id'];
export const TRAINING_VIDEO_IDS = TRAINING_VIDEOS.map((v) => v.id) as readonly TTrainingVideoId[];

export function isTrainingVideoId(value: string): value is TTrainingVideoId {
  return (TRAINING_VIDEO_IDS as readonly string[]).includes(value);
}

/** One recording the server has (GET /api/training-videos). */
export const ZTrainingVideoFile = z
  .object({
    id: z.string(),
    bytes: z.number().int().nonnegative(),
    recordedAt: z.string(),
  })
  .meta({ id: 'TrainingVideoFile' });
export type TTrainingVideoFile = z.infer<typeof ZTrainingVideoFile>;
export const ZTrainingVideoList = z
  .object({ videos: z.array(ZTrainingVideoFile) })
  .meta({ id: 'TrainingVideoList' });
export type TTrainingVideoList = z.infer<typeof ZTrainingVideoList>;
export const ZTrainingVideoParams = z.object({
  file: z
    .string()
    .regex(/^[a-z-]+\.webm$/, 'A training video is <id>.webm')
    .refine((f) => isTrainingVideoId(f.slice(0, -'.webm'.length)), 'No such training video'),
});
