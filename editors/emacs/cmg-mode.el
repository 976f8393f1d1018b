;;; cmg-mode.el --- Major mode for .cmg Cat and Mouse game graphs -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages

;;; Commentary:

;; Editing support for `.cmg' files: colouring of keywords, outcomes, the edge
;; operator, strings and comments; `#' comments for `comment-dwim'; indentation
;; inside brackets; and the `cmg lsp' language server registered with eglot, so
;; that `M-x eglot' (or `eglot-ensure' in `cmg-mode-hook') brings diagnostics,
;; hovers, code actions, formatting, navigation and completion.
;;
;; Install: put this file on `load-path' and add
;;
;;   (require 'cmg-mode)
;;   (add-hook 'cmg-mode-hook #'eglot-ensure)   ; optional: start the server
;;
;; The word lists follow the lexer (crates/cmg-syntax/src/lexer.rs); the CI test
;; (editors/emacs/test/cmg-mode-test.el) fails when they drift apart.

;;; Code:

(defgroup cmg nil
  "Cat and Mouse game graphs."
  :group 'languages
  :prefix "cmg-")

(defcustom cmg-server-command '("cmg" "lsp")
  "The command eglot runs for the cmg language server, program first."
  :type '(repeat string)
  :group 'cmg)

(defcustom cmg-indent-offset 2
  "Indentation of each bracket level, as `cmg fmt' lays out adjacency lists."
  :type 'integer
  :safe #'integerp
  :group 'cmg)

(defconst cmg-statement-keywords '("node" "expect" "rule")
  "Words that start a statement.")

(defconst cmg-outcome-keywords '("mouse" "cat" "draw")
  "The outcomes an `expect' statement names.")

(defconst cmg-keywords (append cmg-statement-keywords cmg-outcome-keywords)
  "Every keyword of the language, as the lexer knows them.")

(defvar cmg-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; `#' starts a comment that runs to the end of the line.
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\r ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?\[ "(]" table)
    (modify-syntax-entry ?\] ")[" table)
    (modify-syntax-entry ?{ "(}" table)
    (modify-syntax-entry ?} "){" table)
    (modify-syntax-entry ?- "." table)
    (modify-syntax-entry ?, "." table)
    (modify-syntax-entry ?\; "." table)
    (modify-syntax-entry ?_ "w" table)
    table)
  "Syntax table for `cmg-mode'.")

(defconst cmg-font-lock-keywords
  `(;; A rule's name (`rule limit 16', `rule cat-enters-holes'), before the outcomes
    ;; that `cat-enters-holes' starts with and the stray words below.
    ("\\_<rule\\_>[ \t]+\\([A-Za-z_][A-Za-z0-9_-]*\\)" 1 font-lock-function-name-face)
    (,(regexp-opt cmg-statement-keywords 'symbols) . font-lock-keyword-face)
    (,(regexp-opt cmg-outcome-keywords 'symbols) . font-lock-constant-face)
    ("--\\|->" . font-lock-builtin-face)
    ;; Any other word is an error for the lexer; show it as one before the server does.
    ("\\_<[A-Za-z_][A-Za-z0-9_]*\\_>" . font-lock-warning-face))
  "Colouring for `cmg-mode'; strings and comments come from the syntax table.")

(defun cmg-indent-line ()
  "Indent the current line by its depth inside brackets."
  (interactive)
  (let* ((depth (save-excursion
                  (back-to-indentation)
                  (let ((level (car (syntax-ppss))))
                    ;; A line that starts by closing a bracket lines up with its opener.
                    (if (and (> level 0) (looking-at "[]}]")) (1- level) level))))
         (column (* depth cmg-indent-offset)))
    (if (<= (current-column) (current-indentation))
        (indent-line-to column)
      (save-excursion (indent-line-to column)))))

;;;###autoload
(define-derived-mode cmg-mode prog-mode "cmg"
  "Major mode for `.cmg' Cat and Mouse game graphs.
The language smarts come from `cmg lsp' through eglot: \\[eglot]."
  :syntax-table cmg-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "#+[ \t]*")
  (setq-local font-lock-defaults '(cmg-font-lock-keywords))
  (setq-local indent-line-function #'cmg-indent-line)
  (setq-local indent-tabs-mode nil))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.cmg\\'" . cmg-mode))

(defun cmg--eglot-contact (_interactive)
  "The server command for eglot, read when the server starts."
  cmg-server-command)

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(cmg-mode . cmg--eglot-contact)))

(provide 'cmg-mode)
;;; cmg-mode.el ends here
