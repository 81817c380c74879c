import type { TDocumentParts } from './document-parts.js';

/** A name and a sentence in each script the documents print (issue 21 §1), and a report holding them. */

export interface TScriptCase {
  script: string;
  name: string;
  body: string;
  /** What Word needs to show it: the East Asian or complex-script font, right to left. */
  word: { eastAsia?: string; cs?: string; rtl?: boolean };
}

/**
 * Script, name, sentence, and the font Word needs: '' none (Latin, Greek, Cyrillic), 'cs:<font>' a
 * complex-script font, 'rtl:<font>' the same right to left, 'ea:<font>' an East Asian font.
 */
const SCRIPT_TABLE: readonly (readonly [string, string, string, string])[] = [
  ['Latin', 'Zoë Łukasiewicz-Müller', 'Leichte Schleimhautverdickung der Kieferhöhle.', ''],
  ['Greek', 'Αλέξανδρος Παπαδόπουλος', 'Ήπια πάχυνση του βλεννογόνου.', ''],
  ['Cyrillic', 'Иван Петрович Сидоров', 'Лёгкое утолщение слизистой оболочки.', ''],
  ['Devanagari', 'प्रिया शर्मा', 'बाएँ मैक्सिलरी साइनस में हल्की म्यूकोसल मोटाई।', 'cs:Noto Sans Devanagari'],
  ['Bengali', 'অর্পিতা চক্রবর্তী', 'বাম ম্যাক্সিলারি সাইনাসে হালকা মিউকোসাল পুরুত্ব।', 'cs:Noto Sans Bengali'],
  ['Tamil', 'கார்த்திகேயன் சுப்பிரமணியம்', 'இடது சைனஸில் லேசான தடிப்பு.', 'cs:Noto Sans Tamil'],
  ['Telugu', 'శ్రీనివాస్ రెడ్డి', 'ఎడమ సైనస్‌లో స్వల్ప మందం.', 'cs:Noto Sans Telugu'],
  ['Gujarati', 'કિશન પટેલ', 'ડાબા સાઇનસમાં હળવી જાડાઈ.', 'cs:Noto Sans Gujarati'],
  ['Kannada', 'ಕಿರಣ್ ಕುಮಾರ್', 'ಎಡ ಸೈನಸ್‌ನಲ್ಲಿ ಸ್ವಲ್ಪ ದಪ್ಪ.', 'cs:Noto Sans Kannada'],
  ['Malayalam', 'ശ്രീലക്ഷ്മി നായർ', 'ഇടത് സൈനസിൽ നേരിയ കട്ടി.', 'cs:Noto Sans Malayalam'],
  ['Odia', 'ସୁଭଶ୍ରୀ ମହାପାତ୍ର', 'ବାମ ସାଇନସରେ ସାମାନ୍ୟ ମୋଟା।', 'cs:Noto Sans Oriya'],
  ['Sinhala', 'නිමල් පෙරේරා', 'වම් සයිනසයේ සුළු ඝනකමක්.', 'cs:Noto Sans Sinhala'],
  ['Thai', 'สมชาย ใจดี', 'เยื่อบุไซนัสด้านซ้ายหนาเล็กน้อย', 'cs:Noto Sans Thai'],
  ['Gurmukhi', 'ਹਰਪ੍ਰੀਤ ਸਿੰਘ', 'ਖੱਬੇ ਸਾਈਨਸ ਵਿੱਚ ਹਲਕੀ ਮੋਟਾਈ।', 'cs:Noto Sans Gurmukhi'],
  ['Japanese', '山田 花子 やまだ はなこ', '左上顎洞に軽度の粘膜肥厚を認めます。', 'ea:Noto Sans JP'],
  ['Simplified Chinese', '张伟', '左侧上颌窦黏膜轻度增厚。', 'ea:Noto Sans SC'],
  ['Traditional Chinese', '陳大文', '左側上頜竇黏膜輕度增厚。', 'ea:Noto Sans SC'],
  ['Hangul', '홍길동', '좌측 상악동 점막의 경미한 비후.', 'ea:Noto Sans KR'],
  ['Hebrew', 'דוד כהן', 'עיבוי קל של רירית הסינוס השמאלי.', 'rtl:Noto Sans Hebrew'],
  ['Arabic', 'محمد عبد الله', 'سماكة خفيفة في الغشاء المخاطي للجيب الأيسر.', 'rtl:Noto Naskh Arabic'],
];

/**
 * More names and sentences of the Indic scripts (and Sinhala), read back from the PDF beside the
 * table above: conjuncts, reph, split vowels, vowel signs drawn as glyphs of their own, chillu,
 * joiners (Sinhala's ZWJ forms), words followed by a comma.
 */
export const MORE_INDIC_WORDS: readonly (readonly [string, string, string])[] = [
  ['Devanagari', 'कृष्णमूर्ति त्रिपाठी', 'दाहिने फेफड़े में छोटी गांठ, हृदय सामान्य।'],
  ['Bengali', 'শ্রীমতী সুস্মিতা বন্দ্যোপাধ্যায়', 'ডান ফুসফুসে ক্ষুদ্র নোডিউল, হৃদপিণ্ড স্বাভাবিক।'],
  ['Tamil', 'ஸ்ரீநிவாசன் கிருஷ்ணமூர்த்தி', 'வலது நுரையீரலில் சிறிய கட்டி, இதயம் இயல்பு.'],
  ['Telugu', 'కృష్ణమూర్తి శర్మ', 'కుడి ఊపిరితిత్తిలో చిన్న గడ్డ, గుండె సాధారణం.'],
  ['Gujarati', 'ક્ષિતિજ ત્રિવેદી', 'જમણા ફેફસામાં નાની ગાંઠ, હૃદય સામાન્ય.'],
  ['Kannada', 'ಶ್ರೀಕೃಷ್ಣ ಭಟ್', 'ಬಲ ಶ್ವಾಸಕೋಶದಲ್ಲಿ ಸಣ್ಣ ಗಂಟು, ಹೃದಯ ಸಾಮಾನ್ಯ.'],
  ['Malayalam', 'കൃഷ്ണൻ നമ്പൂതിരി', 'വലത് ശ്വാസകോശത്തിൽ ചെറിയ മുഴ, ഹൃദയം സാധാരണം.'],
  ['Odia', 'ଶ୍ରୀକାନ୍ତ ପଟ୍ଟନାୟକ', 'ଡାହାଣ ଫୁସଫୁସରେ ଛୋଟ ଗଣ୍ଠି।'],
  ['Gurmukhi', 'ਗੁਰਪ੍ਰੀਤ ਕੌਰ', 'ਸੱਜੇ ਫੇਫੜੇ ਵਿੱਚ ਛੋਟੀ ਗੰਢ।'],
  ['Sinhala', 'ශ්‍රී ලක්ෂ්මන් ප්‍රනාන්දු', 'දකුණු පෙණහලුවේ කුඩා ගැටිත්තක්.'],
];

function wordNeeds(spec: string): TScriptCase['word'] {
  const [kind, font] = spec.split(':');
  if (kind === 'ea') return { eastAsia: font };
  if (kind === 'cs') return { cs: font };
  if (kind === 'rtl') return { cs: font, rtl: true };
  return {};
}

export const SCRIPT_CASES: TScriptCase[] = SCRIPT_TABLE.map(([script, name, body, word]) => ({
  script,
  name,
  body,
  word: wordNeeds(word),
}));

export function scriptParts(name: string, body: string): TDocumentParts {
  return {
    title: `CT PNS ${name}`,
    productName: 'Radflow',
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
