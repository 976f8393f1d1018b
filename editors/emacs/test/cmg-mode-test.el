;;; cmg-mode-test.el --- Tests of cmg-mode, with eglot against the real server -*- lexical-binding: t; -*-

;;; Commentary:

;; Run from the repository root (editors/emacs/ci.sh does):
;;
;;   CMG_BIN=target/debug/cmg emacs --batch --no-init-file -L editors/emacs \
;;     -l editors/emacs/test/cmg-mode-test.el -f ert-run-tests-batch-and-exit
;;
;; `--no-init-file' rather than `-Q', so that Debian's site files put the
;; elpa-eglot package on the load path.  The eglot tests open copies of the
;; examples the way a user does (`find-file', then `eglot-ensure') and read
;; what eglot shows: Flymake diagnostics and the hover text eldoc displays.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'json)
(require 'cmg-mode)
(require 'eglot)

(defconst cmg-test-root (expand-file-name default-directory)
  "The repository root, where the test is run from.")

(defconst cmg-test-binary
  (expand-file-name (or (getenv "CMG_BIN") "target/debug/cmg") cmg-test-root)
  "The `cmg' binary under test.")

(defconst cmg-test-patience 20
  "Seconds to wait for the server before a test fails.")

(defun cmg-test-wait (predicate)
  "Process events until PREDICATE returns non-nil or patience runs out; return its value."
  (let ((deadline (+ (float-time) cmg-test-patience))
        (value (funcall predicate)))
    (while (and (not value) (< (float-time) deadline))
      (accept-process-output nil 0.1)
      (setq value (funcall predicate)))
    value))

(defvar cmg-test-workspace nil
  "A temporary copy of the examples, so that nothing in the repository is touched.")

(add-hook 'kill-emacs-hook
          (lambda ()
            (when cmg-test-workspace
              (delete-directory cmg-test-workspace t))))

(defun cmg-test-open (name)
  "Visit the example NAME from the workspace with eglot managing it; return the buffer."
  (unless cmg-test-workspace
    (setq cmg-test-workspace (make-temp-file "cmg-emacs-" t))
    (copy-directory (expand-file-name "examples" cmg-test-root)
                    (file-name-as-directory cmg-test-workspace) nil nil t))
  (let ((buffer (find-file-noselect (expand-file-name name cmg-test-workspace))))
    (switch-to-buffer buffer)
    (with-current-buffer buffer
      (should (eq major-mode 'cmg-mode))
      (setq cmg-server-command (list cmg-test-binary "lsp"))
      (eglot-ensure)
      ;; `eglot-ensure' connects once the current command is over; in batch there is
      ;; no command loop, so end the "command" here.
      (run-hooks 'post-command-hook)
      (should (cmg-test-wait (lambda () (eglot-managed-p)))))
    buffer))

(defun cmg-test-face-at (text &optional occurrence)
  "The face of the first character of the OCCURRENCE-th (default 1st) TEXT in the buffer."
  (save-excursion
    (goto-char (point-min))
    (search-forward text nil nil (or occurrence 1))
    (get-text-property (match-beginning 0) 'face)))

;;; The mode on its own.

(ert-deftest cmg-keywords-are-the-lexers ()
  "The mode colours exactly the keywords crates/cmg-syntax/src/lexer.rs defines."
  (let ((lexer (with-temp-buffer
                 (insert-file-contents (expand-file-name "crates/cmg-syntax/src/lexer.rs" cmg-test-root))
                 (let (words)
                   (while (re-search-forward "#\\[token(\"\\([A-Za-z]+\\)\")\\]" nil t)
                     (push (match-string 1) words))
                   words))))
    (should lexer)
    (should (equal (sort (copy-sequence cmg-keywords) #'string<) (sort lexer #'string<)))))

(ert-deftest cmg-font-lock-rules ()
  "A rule's keyword and name, and the one-way edge, get their faces."
  (with-temp-buffer
    (insert "rule cat-enters-holes\nrule limit 16\n1 -> 2\n")
    (cmg-mode)
    (font-lock-ensure)
    (should (eq (cmg-test-face-at "rule") 'font-lock-keyword-face))
    (should (eq (cmg-test-face-at "cat-enters-holes") 'font-lock-function-name-face))
    (should (eq (cmg-test-face-at "limit") 'font-lock-function-name-face))
    (should (eq (cmg-test-face-at "->") 'font-lock-builtin-face))))

(ert-deftest cmg-font-lock ()
  "Keywords, outcomes, the edge operator, strings, comments and stray words get their faces."
  (with-temp-buffer
    (insert "# a comment with node in it\nnode 0 \"hole\"\n0 -- 1 -- 2\nexpect draw\nbogus\n")
    (cmg-mode)
    (font-lock-ensure)
    (should (eq (cmg-test-face-at "# a comment") 'font-lock-comment-delimiter-face))
    (should (eq (cmg-test-face-at "node" 2) 'font-lock-keyword-face))
    (should (eq (cmg-test-face-at "\"hole\"") 'font-lock-string-face))
    (should (eq (cmg-test-face-at "--") 'font-lock-builtin-face))
    (should (eq (cmg-test-face-at "expect") 'font-lock-keyword-face))
    (should (eq (cmg-test-face-at "draw") 'font-lock-constant-face))
    (should (eq (cmg-test-face-at "bogus") 'font-lock-warning-face))
    ;; A keyword inside a comment is part of the comment.
    (should (memq (cmg-test-face-at "node") '(font-lock-comment-face)))))

(ert-deftest cmg-comments-and-brackets ()
  "`#' comments for the comment commands, and brackets that match."
  (with-temp-buffer
    (cmg-mode)
    (insert "0 -- 1")
    (comment-region (point-min) (point-max))
    (should (equal (buffer-string) "# 0 -- 1"))
    (should (nth 4 (syntax-ppss (point-max))))
    (erase-buffer)
    (insert "[[1, 3], {0 2}]")
    (goto-char (point-min))
    (forward-sexp)
    (should (eobp))))

(ert-deftest cmg-indentation ()
  "Rows of an adjacency literal are indented one level; the closing bracket is not."
  (with-temp-buffer
    (cmg-mode)
    (insert "[\n[1, 3],\n[0],\n]\n0 -- 1\n")
    (indent-region (point-min) (point-max))
    (should (equal (buffer-string) "[\n  [1, 3],\n  [0],\n]\n0 -- 1\n"))))

(ert-deftest cmg-mode-registers-with-eglot ()
  "eglot finds the server command for cmg-mode buffers."
  (should (assq 'cmg-mode eglot-server-programs))
  (let ((cmg-server-command '("/opt/cmg" "lsp")))
    (should (equal (cmg--eglot-contact nil) '("/opt/cmg" "lsp")))))

;;; eglot against `cmg lsp'.

(defun cmg-test-expected-diagnostics (file)
  "What `cmg check --json FILE' reports, as sorted \"code line:column\" strings."
  (let* ((json (with-temp-buffer
                 (call-process cmg-test-binary nil '(t nil) nil "check" "--json" file)
                 (goto-char (point-min))
                 (json-parse-buffer :object-type 'alist))))
    (sort (mapcar (lambda (diagnostic)
                    (let ((start (alist-get 'start diagnostic)))
                      (format "%s %d:%d" (alist-get 'code diagnostic)
                              (alist-get 'line start) (alist-get 'column start))))
                  json)
          #'string<)))

(defun cmg-test-shown-diagnostics ()
  "Flymake's diagnostics in this buffer as sorted \"code line:column\" strings.
eglot shows a diagnostic as \"cmg [CODE]: message\"."
  (sort (mapcar (lambda (diagnostic)
                  (let ((text (flymake-diagnostic-text diagnostic))
                        (beg (flymake-diagnostic-beg diagnostic)))
                    (format "%s %d:%d"
                            (if (string-match "\\[\\([a-z-]+\\)\\]" text) (match-string 1 text) text)
                            (line-number-at-pos beg t)
                            (save-excursion (goto-char beg) (1+ (current-column))))))
                (flymake-diagnostics))
        #'string<))

(ert-deftest cmg-eglot-diagnostics ()
  "Every diagnostic of every-diagnostic.cmg reaches Flymake with its code and position."
  (with-current-buffer (cmg-test-open "every-diagnostic.cmg")
    (let ((want (cmg-test-expected-diagnostics buffer-file-name)))
      (should (> (length want) 10))
      (should (equal (cmg-test-wait
                      (lambda ()
                        (let ((shown (cmg-test-shown-diagnostics)))
                          (and (= (length shown) (length want)) shown))))
                     want)))))

(defun cmg-test-hover-at (text)
  "Put point on TEXT and return what eldoc would show for it, through eglot's hover."
  (goto-char (point-min))
  (search-forward text)
  (goto-char (match-beginning 0))
  (let (shown)
    (eglot-hover-eldoc-function (lambda (info &rest _) (setq shown info)))
    (cmg-test-wait (lambda () shown))))

(ert-deftest cmg-eglot-hover ()
  "Hover on a node names its neighbours and outcomes; hover on `expect' gives the outcome."
  (with-current-buffer (cmg-test-open "leetcode-draw.cmg")
    ;; Without markdown-mode, eglot shows the Markdown as it is; compare without the stars.
    ;; The solve runs after the analysis, so a hover sent right after opening may come
    ;; before the outcome is known ("outcome not computed"); hover again until it is.
    (let ((node (cmg-test-wait
                 (lambda ()
                   (let ((shown (replace-regexp-in-string
                                 "\\*" "" (or (cmg-test-hover-at "3  # the mouse") ""))))
                     (and (not (string-match-p "not computed" shown)) shown))))))
      (should (string-match-p "node 3" node))
      (should (string-match-p "neighbours: 1, 4, 5" node))
      (should (string-match-p "mouse starts here: cat wins in 4" node)))
    (let ((expect (cmg-test-hover-at "expect draw")))
      (should (stringp expect))
      (should (string-match-p "draw" expect)))))

(ert-deftest cmg-eglot-outcome-through-the-server ()
  "The outcome hint the server sends: Emacs 28's eglot (1.9) has no inlay hints, so the
hover on `expect' above is how its users see the outcome; this checks that the
hint is there for the eglot of Emacs 29 and later, over eglot's own connection."
  (with-current-buffer (cmg-test-open "long-game.cmg")
    (let* ((server (eglot-current-server))
           (hints (cmg-test-wait
                   (lambda ()
                     (let ((answer (jsonrpc-request
                                    server :textDocument/inlayHint
                                    (list :textDocument (eglot--TextDocumentIdentifier)
                                          :range (list :start '(:line 0 :character 0)
                                                       :end '(:line 99 :character 0))))))
                       (and (> (length answer) 0) answer))))))
      (should hints)
      (should (equal (plist-get (aref hints 0) :label) "⟹ outcome: mouse wins in 21")))))

(provide 'cmg-mode-test)
;;; cmg-mode-test.el ends here
