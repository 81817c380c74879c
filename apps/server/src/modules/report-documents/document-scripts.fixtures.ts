import type { TDocumentParts } from './document-parts.js';

/** A name and a sentence in each script the documents print (issue 21 §1), and a report holding them. */

export interface TScriptCase {
  script: string;
  name: string;
  body: string;
  /** What Word needs to show it: the East Asian or complex-script font, right to left. */
  word: { eastAsia?: string; cs?: string; rtl?: boolean };
}

export const SCRIPT_CASES: TScriptCase[] = [
  {
    script: 'Latin',
    name: 'Zoë Łukasiewicz-Müller',
    body: 'Leichte Schleimhautverdickung der Kieferhöhle.',
    word: {},
  },
  { script: 'Greek', name: 'Αλέξανδρος Παπαδόπουλος', body: 'Ήπια πάχυνση του βλεννογόνου.', word: {} },
  {
    script: 'Cyrillic',
    name: 'Иван Петрович Сидоров',
    body: 'Лёгкое утолщение слизистой оболочки.',
    word: {},
  },
  {
    script: 'Devanagari',
    name: 'प्रिया शर्मा',
    body: 'बाएँ मैक्सिलरी साइनस में हल्की म्यूकोसल मोटाई।',
    word: { cs: 'Noto Sans Devanagari' },
  },
  {
    script: 'Bengali',
    name: 'অর্পিতা চক্রবর্তী',
    body: 'বাম ম্যাক্সিলারি সাইনাসে হালকা মিউকোসাল পুরুত্ব।',
    word: { cs: 'Noto Sans Bengali' },
  },
  {
    script: 'Tamil',
    name: 'கார்த்திகேயன் சுப்பிரமணியம்',
    body: 'இடது சைனஸில் லேசான தடிப்பு.',
    word: { cs: 'Noto Sans Tamil' },
  },
  { script: 'Telugu', name: 'శ్రీనివాస్ రెడ్డి', body: 'ఎడమ సైనస్‌లో స్వల్ప మందం.', word: { cs: 'Noto Sans Telugu' } },
  {
    script: 'Gujarati',
    name: 'કિશન પટેલ',
    body: 'ડાબા સાઇનસમાં હળવી જાડાઈ.',
    word: { cs: 'Noto Sans Gujarati' },
  },
  { script: 'Kannada', name: 'ಕಿರಣ್ ಕುಮಾರ್', body: 'ಎಡ ಸೈನಸ್‌ನಲ್ಲಿ ಸ್ವಲ್ಪ ದಪ್ಪ.', word: { cs: 'Noto Sans Kannada' } },
  {
    script: 'Malayalam',
    name: 'ശ്രീലക്ഷ്മി നായർ',
    body: 'ഇടത് സൈനസിൽ നേരിയ കട്ടി.',
    word: { cs: 'Noto Sans Malayalam' },
  },
  {
    script: 'Gurmukhi',
    name: 'ਹਰਪ੍ਰੀਤ ਸਿੰਘ',
    body: 'ਖੱਬੇ ਸਾਈਨਸ ਵਿੱਚ ਹਲਕੀ ਮੋਟਾਈ।',
    word: { cs: 'Noto Sans Gurmukhi' },
  },
  {
    script: 'Japanese',
    name: '山田 花子 やまだ はなこ',
    body: '左上顎洞に軽度の粘膜肥厚を認めます。',
    word: { eastAsia: 'Noto Sans JP' },
  },
  {
    script: 'Simplified Chinese',
    name: '张伟',
    body: '左侧上颌窦黏膜轻度增厚。',
    word: { eastAsia: 'Noto Sans SC' },
  },
  {
    script: 'Traditional Chinese',
    name: '陳大文',
    body: '左側上頜竇黏膜輕度增厚。',
    word: { eastAsia: 'Noto Sans SC' },
  },
  {
    script: 'Hangul',
    name: '홍길동',
    body: '좌측 상악동 점막의 경미한 비후.',
    word: { eastAsia: 'Noto Sans KR' },
  },
  {
    script: 'Hebrew',
    name: 'דוד כהן',
    body: 'עיבוי קל של רירית הסינוס השמאלי.',
    word: { cs: 'Noto Sans Hebrew', rtl: true },
  },
  {
    script: 'Arabic',
    name: 'محمد عبد الله',
    body: 'سماكة خفيفة في الغشاء المخاطي للجيب الأيسر.',
    word: { cs: 'Noto Naskh Arabic', rtl: true },
  },
];

export function scriptParts(name: string, body: string): TDocumentParts {
  return {
    title: `CT PNS ${name}`,
    isPreliminary: false,
    patientRows: [
      ['Patient name', name],
      ['Study', 'CT PNS'],
    ],
    reportTextHeader: '<p><strong>City Imaging Centre</strong></p>',
    reportTextFooter: '',
    disclaimer: '',
    sections: [
      {
        title: 'CT PNS',
        html: `<p>${body}</p><p><strong>${name}</strong></p>`,
        isAddendum: false,
        signature: { name, imageDataUrl: null, signedOffLine: 'Signed off: 2026-01-01 10:00 IST' },
      },
    ],
    headerImage: null,
    footerImage: null,
    keyImages: [],
    qr: null,
    marginsCm: { top: 2, bottom: 2, left: 2, right: 2 },
  };
}
