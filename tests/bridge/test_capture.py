from __future__ import annotations

import os
import subprocess
import sys

from hookman.bridge.capture import OutputCapture


def test_prints_and_child_output_are_captured_and_the_answer_is_not(capfd) -> None:
    capture = OutputCapture()
    capture.start()
    try:
        print("python print")
        sys.stderr.write("python stderr\n")
        os.write(1, b"raw fd write\n")
        subprocess.run(["echo", "child"], check=True)
        capture.write_answer('{"answer": 1}\n')
        captured = capture.captured_text()
    finally:
        capture.stop()

    assert captured.splitlines() == ["python print", "python stderr", "raw fd write", "child"]
    out, err = capfd.readouterr()
    assert out == '{"answer": 1}\n'
    assert err == ""
