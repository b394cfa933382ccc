/** A load error or an action's failure, announced to screen readers. */
export function ErrorNotice(props: { error: string | undefined }) {
  if (props.error === undefined) return null;
  return (
    <p class="error" role="alert">
      {props.error}
    </p>
  );
}
