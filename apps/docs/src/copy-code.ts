// The "Copy" button of the guides' code blocks. The page frame inlines this function's source (see page.ts), so
// it must stay self-contained: no imports, no module-level names, nothing but the document it is given.

/**
 * Puts a "Copy" button on every `pre > code` block of `document`, and one polite status line that says what was
 * copied. The Clipboard API needs a secure context (https, localhost or a file); elsewhere (the gateway's /docs
 * over plain http on another host) the button falls back to a copy command whose event carries the text.
 */
export function installCopyButtons(document: Document): void {
  const status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  document.body.append(status);

  const copyByCommand = (text: string): boolean => {
    const onCopy = (event: ClipboardEvent): void => {
      event.clipboardData?.setData("text/plain", text);
      event.preventDefault();
    };
    document.addEventListener("copy", onCopy);
    try {
      return document.execCommand("copy");
    } finally {
      document.removeEventListener("copy", onCopy);
    }
  };

  for (const code of Array.from(document.querySelectorAll("pre > code"))) {
    const pre = code.parentElement;
    if (pre === null) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy-code";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy code");
    let reset: ReturnType<typeof setTimeout> | undefined;
    const report = (copied: boolean): void => {
      button.textContent = copied ? "Copied" : "Copy failed";
      status.textContent = copied ? "Code copied to the clipboard" : "Could not copy the code";
      clearTimeout(reset);
      reset = setTimeout(() => {
        button.textContent = "Copy";
        status.textContent = "";
      }, 2000);
    };
    button.addEventListener("click", () => {
      // The code as the guide wrote it: without the line end that Markdown adds after the last line.
      const text = (code.textContent ?? "").replace(/\n$/, "");
      const clipboard = window.isSecureContext ? navigator.clipboard : undefined;
      if (clipboard === undefined) {
        report(copyByCommand(text));
        return;
      }
      clipboard.writeText(text).then(
        () => report(true),
        () => report(copyByCommand(text)),
      );
    });
    pre.classList.add("has-copy");
    pre.prepend(button);
  }
}
