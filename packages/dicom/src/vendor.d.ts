// Minimal typings for the parts of dcmjs this package uses (dcmjs ships no declarations).

declare module 'dcmjs/dictionary' {
  export interface DcmjsDictionaryEntry {
    tag: string;
    vr: string;
    name: string;
    vm: string;
    version: string;
  }
  export const dictionary: Record<string, DcmjsDictionaryEntry>;
  export default dictionary;
}

declare module 'dcmjs' {
  export interface DcmjsElement {
    vr: string;
    Value?: unknown[];
    InlineBinary?: string;
    BulkDataURI?: string;
    _rawValue?: unknown;
  }
  export type DcmjsDenaturalizedDataset = Record<string, DcmjsElement>;

  export class DicomDict {
    constructor(meta: DcmjsDenaturalizedDataset);
    meta: DcmjsDenaturalizedDataset;
    dict: DcmjsDenaturalizedDataset;
    write(options?: Record<string, unknown>): ArrayBuffer;
  }

  interface DcmjsData {
    DicomMessage: {
      readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): DicomDict;
    };
    DicomDict: typeof DicomDict;
    DicomMetaDictionary: {
      naturalizeDataset(dataset: DcmjsDenaturalizedDataset): Record<string, unknown>;
      denaturalizeDataset(dataset: Record<string, unknown>): DcmjsDenaturalizedDataset;
    };
  }

  interface Dcmjs {
    data: DcmjsData;
    anonymizer: {
      cleanTags(
        dict: DcmjsDenaturalizedDataset,
        tagNamesToReplace?: Record<string, string>,
        customTagNamesToEmpty?: string[],
      ): void;
      getTagsNameToEmpty(): string[];
    };
    log: { setLevel(level: string | number): void; getLevel(): number };
  }

  const dcmjs: Dcmjs;
  export default dcmjs;
}
