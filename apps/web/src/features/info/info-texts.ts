/**
 * The public information pages of spec-core §2 (/info-page?page=terms|privacy|contact|refund), and
 * pricing, the page the 'Voice free trial is over' dialog links to (spec-core §6).
 */
export const INFO_PAGES = ['terms', 'privacy', 'contact', 'refund', 'pricing'] as const;
export type TInfoPage = (typeof INFO_PAGES)[number];

export interface TInfoText {
  title: string;
  sections: { heading: string; body: string }[];
}

export function toInfoPage(value: string | null): TInfoPage {
  return (INFO_PAGES as readonly string[]).includes(value ?? '') ? (value as TInfoPage) : 'terms';
}

export const INFO_TEXTS: Record<TInfoPage, TInfoText> = {
  terms: {
    title: 'Terms of Service',
    sections: [
      {
        heading: 'The service',
        body: 'Radflow lets imaging centers send studies to radiologists, and radiologists report and sign them off. Your organisation (group or center) holds the agreement with Radflow; these terms apply to every person who signs in under it.',
      },
      {
        heading: 'Your account',
        body: 'Accounts are personal. Do not share your password or one-time codes. Your administrator may require each new device to be approved before it can sign in, and may revoke access at any time.',
      },
      {
        heading: 'Clinical responsibility',
        body: 'Reports are written and signed by qualified professionals, who remain responsible for their content. Radflow transports, stores and displays data; it does not make diagnoses.',
      },
      {
        heading: 'Acceptable use',
        body: 'Use Radflow only for the care of patients and the administration of your organisation. Do not upload data you are not entitled to process, attempt to access other organisations’ data, or interfere with the service.',
      },
      {
        heading: 'Availability',
        body: 'We work to keep Radflow available around the clock and announce planned maintenance in advance. Keep your own copy of anything you are legally required to retain.',
      },
    ],
  },
  privacy: {
    title: 'Privacy Policy',
    sections: [
      {
        heading: 'What we process',
        body: 'Patient data in the studies and reports your organisation sends (names, ages, identifiers, images, reports), and about users: name, e-mail, mobile number, roles, and the devices and addresses used to sign in.',
      },
      {
        heading: 'Why',
        body: 'To deliver studies for reporting, deliver reports, secure accounts (device approval and the sign-in log) and bill for the service. We do not sell data or use it for advertising.',
      },
      {
        heading: 'Who can see it',
        body: 'Only the users your organisation grants access to, by role. Support staff access data only when your organisation asks for help, and every sign-in is logged.',
      },
      {
        heading: 'Security and retention',
        body: 'Data is encrypted in transit, passwords are stored as salted hashes, and studies are kept for the backup period your organisation sets, then removed.',
      },
      {
        heading: 'Your rights',
        body: 'Patients and users may ask for access to or correction of their data through the organisation that holds it, which acts as the data controller.',
      },
    ],
  },
  contact: {
    title: 'Contact',
    sections: [
      {
        heading: 'Support',
        body: 'For help with your account, a device waiting for approval or a study that will not upload, contact your group administrator first; they can reach Radflow support through the address in your service agreement.',
      },
      {
        heading: 'Urgent clinical matters',
        body: 'For a critical finding or an urgent report, call the reporting center or radiologist directly. Do not rely on messages in the application for emergencies.',
      },
      {
        heading: 'Security',
        body: 'If you believe an account or device has been misused, tell your administrator at once so they can reject the device in Audit Logins and reset the password.',
      },
    ],
  },
  refund: {
    title: 'Refund Policy',
    sections: [
      {
        heading: 'Subscriptions',
        body: 'Subscriptions are billed in advance for the period chosen. You may cancel at any time; the service stays active until the end of the paid period.',
      },
      {
        heading: 'Refunds',
        body: 'A payment made in error or charged twice is refunded in full. A study paid for but not reported because of a fault on our side is refunded or credited. Refunds go back to the original payment method, usually within 7 working days.',
      },
      {
        heading: 'How to ask',
        body: 'Ask through your group administrator with the invoice number and the reason; we answer every request within 5 working days.',
      },
    ],
  },
  pricing: {
    title: 'Pricing',
    sections: [
      {
        heading: 'How Radflow is billed',
        body: 'Your organisation (group or center) subscribes to Radflow under its service agreement: studies reported, storage beyond the backup period and the add-ons it turns on. Prices are in that agreement and on your invoices.',
      },
      {
        heading: 'Voice typing',
        body: 'Dictation into the report editor (speech to text) is an add-on of the group. After the free trial it stays off until the group subscribes; your group administrator turns it on in Group settings once it is part of the agreement.',
      },
      {
        heading: 'Changing your plan',
        body: 'Ask your group administrator or Radflow support (below) to add or remove an add-on; a change applies from the next billing period.',
      },
    ],
  },
};
