import { ThemeProvider } from '@mui/material/styles';
import { render, screen, waitFor } from '@testing-library/react';
import { useEditor } from '@tiptap/react';
import { describe, expect, it } from 'vitest';
import { theme } from '../app/theme';
import { reportEditorExtensions } from '../features/report-editor/editor-extensions';
import { FormattingToolbar } from './FormattingToolbar';

/*
 * issue 21 §7: Style, Size and Font were full-width dropdowns stacked under each other (the app's
 * theme makes every TextField full width). They are compact controls in the toolbar's row, as in the
 * word processors doctors know.
 */

function Toolbar() {
  const editor = useEditor({ extensions: reportEditorExtensions(), content: '<p>Text</p>' });
  return editor ? <FormattingToolbar editor={editor} /> : null;
}

/** The form control around the select named `label`. */
const controlOf = (label: string) => {
  const select = screen.getByRole('combobox', { name: label });
  const control = select.closest('.MuiFormControl-root');
  expect(control, label).toBeTruthy();
  return control as HTMLElement;
};

describe('FormattingToolbar', { timeout: 20_000 }, () => {
  it('keeps Text type, Font size and Font family compact, in the row with the buttons', async () => {
    render(
      <ThemeProvider theme={theme}>
        <Toolbar />
      </ThemeProvider>,
    );
    const toolbar = await screen.findByRole('toolbar', { name: 'Report formatting' });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Font family' })).toBeTruthy());
    for (const label of ['Text type', 'Font size', 'Font family']) {
      const control = controlOf(label);
      expect(control.className, label).not.toContain('MuiFormControl-fullWidth');
      expect(getComputedStyle(control).width, label).not.toBe('100%');
      // A direct item of the toolbar's row, like the Bold button (no wrapper of its own).
      expect(control.parentElement).toBe(toolbar);
    }
    expect(screen.getByRole('button', { name: 'Bold' }).parentElement).toBe(toolbar);
  });
});
