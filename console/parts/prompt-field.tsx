/** The text a playground call sends: a labelled text area. */
export function PromptField(props: { label: string; rows: number; value: string; onChange: (value: string) => void }) {
  return (
    <label class="field">
      <span>{props.label}</span>
      <textarea name="prompt" rows={props.rows} value={props.value} onInput={(event) => props.onChange(event.currentTarget.value)} />
    </label>
  );
}
