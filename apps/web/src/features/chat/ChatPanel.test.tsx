import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CHAT_MESSAGES, type TChatMessage } from '@radflow/core';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLiveUpdates } from '../../lib/live/live-updates';
import { buildUser, sessionHandlers } from '../../test/builders';
import { FakeEventSource } from '../../test/fake-event-source';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { ChatPanel } from './ChatPanel';

/** Issue 23 §1: the study chat panel (messages, seen, Enter to send, mentions, references, text only). */

const WAIT = { timeout: 8_000 };
const ROW = 77;

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

let nextId = 1;
function message(over: Partial<TChatMessage> & { text: string }): TChatMessage {
  const { text, ...rest } = over;
  const id = nextId++;
  return {
    messageId: id,
    chatThreadId: 1,
    threadType: 'REPORT_CHAT',
    entityId: ROW,
    memberType: 'center',
    createdBy: 'center@demo.local',
    seen: false,
    messageUpdatedAt: '2026-11-27T10:00:00.000Z',
    message: {
      type: 'COMMENT',
      message: text,
      assignedTo: 'NONE',
      entityId: ROW,
      studyId: 5,
      mentions: [],
      reference: null,
    },
    oldMessage: null,
    seenByList: [],
    ...rest,
  };
}

const DOCTOR = {
  userId: 9,
  email: 'dr.lee@demo.local',
  name: 'Dr Ann Lee',
  memberType: 'radiologist' as const,
};

function openPanel(initial: TChatMessage[], hold: { refetches: boolean } = { refetches: false }) {
  // The thread as the server holds it: a sent message joins it.
  const messages = [...initial];
  const me = buildUser(['ROLE_CENTER'], { email: 'me@demo.local' });
  const api = fakeApi({
    ...sessionHandlers(me),
    'GET /api/chat-thread/get-messages': () =>
      // Held: a refetch that never answers, so what is drawn came from elsewhere (the live event).
      hold.refetches
        ? new Promise<never>(() => undefined)
        : { body: { messages, unseen: messages.filter((m) => !m.seen).length } },
    'GET /api/chat-thread/members': { body: { members: [DOCTOR] } },
    'POST /api/chat-thread/seen': { body: { seen: 1 } },
    'POST /api/chat-thread/send-message': (request) => {
      const sent = request.json<{
        messageData: {
          message: string;
          mentions: number[];
          assignedTo: TChatMessage['message']['assignedTo'];
        };
      }>().messageData;
      messages.push(
        message({
          text: sent.message,
          createdBy: 'me@demo.local',
          seen: true,
          message: {
            type: 'COMMENT',
            message: sent.message,
            assignedTo: sent.assignedTo,
            entityId: ROW,
            studyId: 5,
            mentions: sent.mentions.map((userId) => ({ userId, name: DOCTOR.name })),
            reference: null,
          },
        }),
      );
      return { body: messages.at(-1) };
    },
  });
  const view = renderScreen(
    <SignedIn>
      <ChatPanel study={{ id: ROW, apiVersion: 2 }} />
    </SignedIn>,
  );
  return { ...api, queryClient: view.queryClient };
}

describe('the chat panel', () => {
  it('shows each message with author, side and time, as text (never HTML), and marks the thread seen', async () => {
    const api = openPanel([
      message({ text: 'See <b>bold</b> <img src=x onerror=alert(1)>' }),
      message({ text: 'mine', createdBy: 'me@demo.local', memberType: 'center', seen: true }),
      message({
        text: 'Key image attached',
        memberType: 'radiologist',
        createdBy: 'dr.lee@demo.local',
        message: {
          type: 'COMMENT',
          message: 'Key image attached',
          assignedTo: 'NONE',
          entityId: ROW,
          studyId: 5,
          mentions: [],
          reference: {
            kind: 'image',
            sopInstanceUid: '1.2.3.4.5',
            seriesInstanceUid: '1.2.3.4',
            studyInstanceUid: '1.2.3',
            frame: 2,
          },
        },
      }),
    ]);
    const items = await screen.findAllByTestId('chat-message', {}, WAIT);
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('See <b>bold</b> <img src=x onerror=alert(1)>')).toBeTruthy();
    expect(items[0]!.querySelector('b, img')).toBeNull();
    expect(within(items[0]!).getByText(/center@demo\.local · Center ·/)).toBeTruthy();
    expect(within(items[1]!).getByText(/^You · Center ·/)).toBeTruthy();
    const link = within(items[2]!).getByRole('link', { name: /frame 2/ });
    expect(link.getAttribute('href')).toBe('/viewer/1.2.3/77?v=2&d=1&series=1.2.3.4&sop=1.2.3.4.5&frame=2');
    await waitFor(() => expect(api.calls('POST', '/api/chat-thread/seen')).toHaveLength(1), WAIT);
    expect(api.calls('POST', '/api/chat-thread/seen')[0]!.json()).toEqual({
      chatThreadType: 'REPORT_CHAT',
      entityId: ROW,
    });
  });

  it("says 'Please input a message' on an empty send and sends nothing", async () => {
    const api = openPanel([]);
    const box = await screen.findByRole('textbox', { name: 'Message' }, WAIT);
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(await screen.findByText(CHAT_MESSAGES.empty)).toBeTruthy();
    expect(api.calls('POST', '/api/chat-thread/send-message')).toHaveLength(0);
    expect(screen.queryAllByTestId('chat-message')).toHaveLength(0);
  });

  it('offers the people of the conversation after @, sends the mention with Enter and highlights it', async () => {
    const api = openPanel([]);
    const box = (await screen.findByRole('textbox', { name: 'Message' }, WAIT)) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'Hello @dr' } });
    expect(await screen.findByRole('option', { name: /Dr Ann Lee/ }, WAIT)).toBeTruthy();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).toBe('Hello @Dr Ann Lee ');
    expect(screen.queryByRole('option')).toBeNull();
    // Shift+Enter is a new line, not a send.
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    fireEvent.change(box, { target: { value: 'Hello @Dr Ann Lee \nplease look' } });
    expect(api.calls('POST', '/api/chat-thread/send-message')).toHaveLength(0);
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(api.calls('POST', '/api/chat-thread/send-message')).toHaveLength(1), WAIT);
    expect(api.calls('POST', '/api/chat-thread/send-message')[0]!.json()).toEqual({
      messageData: {
        assignedTo: 'NONE',
        type: 'COMMENT',
        entityId: ROW,
        message: 'Hello @Dr Ann Lee \nplease look',
        mentions: [DOCTOR.userId],
        reference: null,
      },
    });
    const mention = await screen.findByTestId('chat-mention', {}, WAIT);
    expect(mention.textContent).toBe('@Dr Ann Lee');
    await waitFor(() => expect(box.value).toBe(''), WAIT);
  });

  it('sends to whom the To choice says, and shows it on the message', async () => {
    const api = openPanel([]);
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'To' }, WAIT));
    fireEvent.click(await screen.findByRole('option', { name: 'Radiologist' }));
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'For the reader' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(api.calls('POST', '/api/chat-thread/send-message')).toHaveLength(1), WAIT);
    expect(api.calls('POST', '/api/chat-thread/send-message')[0]!.json()).toMatchObject({
      messageData: { assignedTo: 'radiologist', message: 'For the reader' },
    });
    const item = await screen.findByTestId('chat-message', {}, WAIT);
    expect(within(item).getByText(/^You · Center → Radiologist ·/)).toBeTruthy();
  });
});

afterEach(() => vi.unstubAllGlobals());

describe('the chat panel on the live stream (issue 23 §6: delivery p95 ≤ 250 ms)', () => {
  it('draws a message the live event carries at once, with no round trip, and once only', async () => {
    const hold = { refetches: false };
    const api = openPanel([message({ text: 'first' })], hold);
    await screen.findByText('first', undefined, WAIT);
    hold.refetches = true;
    vi.stubGlobal('EventSource', FakeEventSource);
    const stop = startLiveUpdates(api.queryClient);
    try {
      const incoming = message({ text: 'From the doctor, live', createdBy: 'dr.lee@demo.local' });
      const event = { id: 900, reportStatusId: ROW, type: 'CHAT_MESSAGE_SENT', message: incoming };
      FakeEventSource.last!.emit('study', event);
      // A duplicate (a resume replays it) changes nothing.
      FakeEventSource.last!.emit('study', event);
      expect(await screen.findByText('From the doctor, live', undefined, WAIT)).toBeTruthy();
      expect(screen.getAllByText('From the doctor, live')).toHaveLength(1);
      // Every later ask for the thread is held unanswered: the text came with the event.
      expect(api.calls('GET', '/api/chat-thread/get-messages').length).toBeGreaterThanOrEqual(1);
    } finally {
      stop();
    }
  });
});
