/// PoiseSpectral — spectral analysis (FFT, Welch PSD, spectrogram, frequency response) on FFTW.
///
/// This is the only Poise target that links FFTW (through the `CFFTW` system-library target).
public enum PoiseSpectral {}
