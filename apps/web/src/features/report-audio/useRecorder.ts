import { useCallback, useEffect, useRef, useState } from 'react';

/** A finished take: the bytes and how long it lasted. */
export interface TRecording {
  blob: Blob;
  durationMs: number;
  url: string;
}

export type TRecorderState =
  | { kind: 'idle' }
  | { kind: 'starting' }
  | { kind: 'recording'; elapsedMs: number; level: number }
  | { kind: 'recorded'; recording: TRecording }
  | { kind: 'failed'; message: string };

/** Types tried in order; the first the browser records is used (Chrome: WebM/Opus, Safari: MP4). */
const PREFERRED_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];

export const RECORDER_MESSAGES = {
  unsupported: 'This browser cannot record audio. Use a recent Chrome, Edge, Firefox or Safari.',
  micBlocked: 'The microphone is blocked. Allow it in the browser and try again.',
  noMic: 'No microphone was found.',
} as const;

function pickMimeType(): string | undefined {
  const isSupported = globalThis.MediaRecorder?.isTypeSupported?.bind(globalThis.MediaRecorder);
  return isSupported ? PREFERRED_TYPES.find((t) => isSupported(t)) : undefined;
}

/** A level meter (0…1) from the microphone, where the browser has Web Audio; nothing otherwise. */
function startLevelMeter(stream: MediaStream, onLevel: (level: number) => void): () => void {
  const AudioContextClass = globalThis.AudioContext;
  if (!AudioContextClass) return () => undefined;
  const context = new AudioContextClass();
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Uint8Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getByteTimeDomainData(samples);
    let peak = 0;
    for (const s of samples) peak = Math.max(peak, Math.abs(s - 128) / 128);
    onLevel(peak);
  }, 100);
  return () => {
    clearInterval(timer);
    void context.close();
  };
}

/**
 * Recording with MediaRecorder (issue 7 §3): start asks for the microphone, stop gives the take with
 * its duration. The elapsed time ticks every 200 ms; the microphone is released on stop and on
 * unmount.
 */
export function useRecorder() {
  const [state, setState] = useState<TRecorderState>({ kind: 'idle' });
  const recorderRef = useRef<MediaRecorder | null>(null);
  const cleanupRef = useRef<(() => void) | null>(null);
  const urlRef = useRef<string | null>(null);

  const release = useCallback(() => {
    cleanupRef.current?.();
    cleanupRef.current = null;
  }, []);

  const forgetTake = useCallback(() => {
    if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
  }, []);

  useEffect(
    () => () => {
      if (recorderRef.current?.state === 'recording') recorderRef.current.stop();
      release();
      forgetTake();
    },
    [release, forgetTake],
  );

  const start = useCallback(async () => {
    if (!globalThis.MediaRecorder || !navigator.mediaDevices?.getUserMedia) {
      setState({ kind: 'failed', message: RECORDER_MESSAGES.unsupported });
      return;
    }
    forgetTake();
    setState({ kind: 'starting' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      const name = (error as { name?: string }).name;
      setState({
        kind: 'failed',
        message: name === 'NotFoundError' ? RECORDER_MESSAGES.noMic : RECORDER_MESSAGES.micBlocked,
      });
      return;
    }
    const mimeType = pickMimeType();
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    const startedAt = Date.now();
    let level = 0;
    const stopMeter = startLevelMeter(stream, (l) => {
      level = l;
    });
    const ticker = setInterval(() => {
      setState({ kind: 'recording', elapsedMs: Date.now() - startedAt, level });
    }, 200);
    cleanupRef.current = () => {
      clearInterval(ticker);
      stopMeter();
      for (const track of stream.getTracks()) track.stop();
    };
    recorder.addEventListener('dataavailable', (event: BlobEvent) => {
      if (event.data.size > 0) chunks.push(event.data);
    });
    recorder.addEventListener('stop', () => {
      const durationMs = Date.now() - startedAt;
      release();
      const blob = new Blob(chunks, { type: recorder.mimeType || mimeType || 'audio/webm' });
      const url = URL.createObjectURL(blob);
      urlRef.current = url;
      setState({ kind: 'recorded', recording: { blob, durationMs, url } });
    });
    recorderRef.current = recorder;
    recorder.start(1000);
    setState({ kind: 'recording', elapsedMs: 0, level: 0 });
  }, [forgetTake, release]);

  const stop = useCallback(() => {
    if (recorderRef.current?.state === 'recording') recorderRef.current.stop();
  }, []);

  /** Back to idle after an upload or a discard. */
  const reset = useCallback(() => {
    forgetTake();
    setState({ kind: 'idle' });
  }, [forgetTake]);

  return { state, start, stop, reset };
}
